/** The g2plot engine, in its own chunk. */
export { Column, Bar, Line, Area, Scatter, Radar, Gauge, Pie, Rose, Funnel, Treemap, Liquid, Waterfall, WordCloud } from '@antv/g2plot';

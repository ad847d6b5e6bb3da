/** Shapes of the dyreport service's answers (spec section 3) as the viewer reads them. */

export interface DimensionRef {
  id: string;
  value: unknown;
}

export interface Point {
  value: number | null;
  dimensionList?: DimensionRef[];
  quotaList?: { id: string }[];
}

export interface ValueFormat {
  formatType?: 'number' | 'percent' | 'auto' | string;
  decimalNumber?: number;
  thousandSeparator?: boolean;
}

export interface SeriesProperty {
  axis?: string;
  fieldId?: string;
  key?: string;
  valueFormat?: ValueFormat | null;
  chartType?: string | null;
}

export interface Series {
  name: string;
  data: (Point | null)[];
  summary?: string;
  property?: SeriesProperty;
}

export interface Datum {
  field: string;
  name: string;
  value: number | null;
  category: string;
  popSize?: number | null;
  dimensionList?: DimensionRef[];
  quotaList?: { id: string }[];
}

export interface DataField {
  id: string;
  name: string;
  dataeaseName?: string;
  key: string;
  type?: string;
  axis?: string;
  summary?: string;
  sort?: 'asc' | 'desc' | 'none';
  valueFormat?: ValueFormat;
}

export interface PivotColumn {
  path: unknown[];
  quota: string;
  name: string;
  key: string;
}

export interface PivotData {
  rowFields: string[];
  columnFields: string[];
  quotaFields: string[];
  columns: PivotColumn[];
  rows: { rowKeys: unknown[]; values: Record<string, unknown>; total?: Record<string, unknown> }[];
  columnTotals?: Record<string, unknown>;
  grandTotal?: Record<string, unknown>;
}

export interface ChartData {
  x: string[];
  series: Series[];
  datas: Datum[];
  fields: DataField[];
  tableRow: Record<string, unknown>[];
  pivot?: PivotData;
  pageNum?: number;
  pageSize?: number;
  resultTotal?: number;
  truncated?: boolean;
}

export interface AxisItem {
  id: string;
  name?: string;
  summary?: string;
  sort?: 'asc' | 'desc' | 'none';
  valueFormat?: ValueFormat;
  chartType?: string;
  [k: string]: unknown;
}

export interface ChartView {
  id: string;
  panelId?: string;
  name: string;
  title: string;
  type: string;
  render: 'echarts' | 'antv' | string;
  stylePriority?: 'panel' | 'view' | string;
  customAttr?: string | Record<string, any>;
  customStyle?: string | Record<string, any>;
  senior?: string | Record<string, any>;
  xaxis?: AxisItem[];
  xaxisExt?: AxisItem[];
  yaxis?: AxisItem[];
  yaxisExt?: AxisItem[];
  extBubble?: AxisItem[];
  drillFields?: AxisItem[];
  resultMode?: string;
  resultCount?: number;
  pageSize?: number;
  privileges?: string;
  data?: ChartData;
  success?: boolean;
  drill?: boolean;
  drillFilters?: { fieldId: string; value: unknown[]; datasetTableField?: Record<string, unknown> }[];
}

/** A filter condition (spec 3.4). */
export interface FilterItem {
  componentId?: string;
  fieldId: string;
  operator: 'between' | 'in' | 'eq' | 'like' | 'ge' | 'le';
  value: unknown[];
  viewIds?: string[];
  sourceViewId?: string;
}

export interface DrillItem {
  fieldId: string;
  value: unknown[];
  /** Shown in the breadcrumb. */
  label?: string;
}

export interface CommonBackground {
  enable?: boolean;
  backgroundType?: 'color' | 'innerImage' | 'outerImage' | string;
  color?: string;
  alpha?: number;
  innerPadding?: number;
  borderRadius?: number;
  innerImage?: string;
  outerImage?: string;
  backgroundColorSelect?: boolean;
}

export interface ComponentStyle {
  left: number;
  top: number;
  width: number;
  height: number;
  borderWidth?: number;
  borderColor?: string;
  borderStyle?: string;
  borderRadius?: number;
  backgroundColor?: string;
  letterSpacing?: number;
  rotate?: number;
  verticalAlign?: string;
  textAlign?: string;
  fontSize?: number;
  fontWeight?: string | number;
  color?: string;
  opacity?: number;
  time_margin?: number;
  [k: string]: unknown;
}

export interface WidgetAttrs {
  title?: string;
  type?: string;
  multiple?: boolean;
  fieldId?: string;
  default?: { isDynamic?: boolean; dkey?: string | number; dynamicPrefix?: number | string; dynamicInfill?: string; dynamicSuffix?: string };
  round?: boolean;
  customRange?: boolean;
  filterIds?: string[];
  autoTrigger?: boolean;
  key?: string;
  label?: string;
  value?: string;
  placeholder?: string;
  [k: string]: unknown;
}

export interface TabItem {
  name: string;
  title: string;
  layout?: string;
  content?: PanelComponent | PanelComponent[] | null;
}

export interface PanelComponent {
  id: string;
  type: string;
  component?: string;
  serviceName?: string;
  label?: string;
  style: ComponentStyle;
  propValue?: any;
  options?: { attrs?: WidgetAttrs; value?: unknown; tabList?: TabItem[]; [k: string]: unknown };
  filters?: FilterItem[];
  linkageFilters?: FilterItem[];
  hyperlinks?: { enable?: boolean; content?: string; openMode?: string };
  commonBackground?: CommonBackground;
  videoLinks?: { videoType?: string; web?: { src?: string; autoplay?: boolean; loop?: boolean; muted?: boolean }; [k: string]: unknown };
  formatInfo?: { timeFormat?: string; showWeek?: boolean; showDate?: boolean; dateFormat?: string; openMode?: string };
  /** Grid placement inside tabs (24 columns). */
  x?: number;
  y?: number;
  w?: number;
  h?: number;
}

export interface PanelStyle {
  width?: number;
  height?: number;
  openCommonStyle?: boolean;
  panel?: { backgroundType?: 'image' | 'color' | string; imageUrl?: string; color?: string };
  chart?: { customAttr?: Record<string, any>; customStyle?: Record<string, any> };
}

export interface PanelDetail {
  id: string;
  name: string;
  privileges?: string;
  panelData: string | PanelComponent[];
  panelStyle: string | PanelStyle;
  /** The proxy user whose data scope data and option calls ask for (spec 6), if the panel has one. */
  proxy?: number | null;
}

/** Link validation (spec 3.5). */
export interface LinkValidation {
  hasPermission: boolean;
  resourceId: string | null;
  valid: boolean;
  enablePwd: boolean;
  passPwd: boolean;
  expire: boolean;
  locked?: boolean;
  linkToken?: string;
}

/** A jump (spec 3.6). */
export interface JumpInfo {
  sourceViewId?: string;
  sourceFieldId?: string;
  linkType: 'inner' | 'other' | string;
  jumpType?: '_blank' | '_self' | string;
  targetPanelId?: string | null;
  publicJumpId?: string | null;
  content?: string;
  attachParams?: boolean;
  targetViewInfoList?: { targetViewId: string; targetFieldId: string }[];
}

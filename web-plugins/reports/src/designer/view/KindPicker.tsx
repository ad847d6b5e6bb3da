/** The render engine and the chart kind: every kind of the spec, tables and text labels with either engine. */
import { Segmented, Tooltip } from 'antd';
import { useDT } from '../data/i18n';
import { kindsOf, type Render } from './kinds';

export function KindPicker({ type, render, onChange }: { type: string; render: Render; onChange: (type: string, render: Render) => void }) {
  const { t } = useDT();
  return (
    <div data-testid="kind-picker">
      <Segmented<Render>
        block
        size="small"
        value={render}
        onChange={(r) => onChange(kindsOf(r).includes(type) ? type : 'bar', r)}
        options={[
          { value: 'echarts', label: <span data-testid="render-echarts">ECharts</span> },
          { value: 'antv', label: <span data-testid="render-antv">AntV</span> },
        ]}
        style={{ marginBottom: 8 }}
      />
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(84px, 1fr))', gap: 4 }}>
        {kindsOf(render).map((k) => (
          <Tooltip key={k} title={k} mouseEnterDelay={0.6}>
            <button
              type="button"
              data-testid={`kind-${k}`}
              aria-pressed={k === type}
              onClick={() => onChange(k, render)}
              style={{
                padding: '4px 2px',
                fontSize: 12,
                lineHeight: '16px',
                minHeight: 36,
                borderRadius: 4,
                cursor: 'pointer',
                border: `1px solid ${k === type ? '#1677ff' : '#e0e4ec'}`,
                background: k === type ? '#e6f4ff' : '#fff',
                color: k === type ? '#1677ff' : '#333',
                overflowWrap: 'anywhere',
              }}
            >
              {t(`kinds.${k}`)}
            </button>
          </Tooltip>
        ))}
      </div>
    </div>
  );
}

import type { ReactNode } from 'react';

/** A labelled row of the property panel. */
export function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="dsg-field" style={{ display: 'flex', flexDirection: 'column', gap: 4, marginBottom: 10, fontSize: 12, color: '#4e5969' }}>
      <span>{label}</span>
      {children}
    </div>
  );
}

export function Section({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} style={{ borderTop: '1px solid #eef0f4', paddingTop: 10, marginTop: 6 }}>
      <div style={{ fontWeight: 600, fontSize: 13, marginBottom: 8 }}>{title}</div>
      {children}
    </section>
  );
}

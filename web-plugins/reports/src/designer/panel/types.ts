/** Shapes the panel designer reads and writes (plugins/reports/README.md, spec 3.1, 3.2). */
import type { PanelComponent, PanelStyle } from '../../model/types';

export interface PanelListItem {
  id: string;
  name: string;
  privileges?: string;
  publishedVersion?: number | null;
  hasUnpublished?: boolean;
  /** Viewers see something (a published version, or components written live); false: never published. */
  live?: boolean;
}

/** The panel as panel/findOne and panel/proxy answer it (the fields the designer reads). */
export interface PanelPublic {
  id: string;
  name: string;
  privileges?: string;
  /** The proxy user whose data scope the panel's data answers in, or null. */
  proxy?: number | null;
  /** The proxy user's name (answered to those who manage the panel). */
  proxyName?: string;
}

export interface Draft {
  id: string;
  name: string;
  panelData: string;
  panelStyle: string;
  draftUpdateTime?: number | null;
  publishedVersion?: number | null;
  hasUnpublished?: boolean;
  live?: boolean;
  privileges?: string;
}

/** What the author edits; every change is one step of the undo history. */
export interface DesignState {
  name: string;
  components: PanelComponent[];
  style: PanelStyle;
}

export interface PanelVersion {
  version: number;
  name: string;
  note?: string | null;
  publishedBy?: string | number | null;
  publishedByName?: string | null;
  publishTime: number;
}

export interface LinkageField {
  sourceField: string;
  targetField: string;
}

export interface LinkageTarget {
  targetViewId: string;
  linkageFields: LinkageField[];
  active: boolean;
}

export interface JumpInfoEntry {
  sourceViewId: string;
  sourceFieldId: string;
  linkType: 'inner' | 'other';
  jumpType: '_self' | '_blank';
  targetPanelId?: string | null;
  publicJumpId?: string | null;
  content?: string | null;
  attachParams?: boolean;
  checked?: boolean;
  targetViewInfoList?: { targetViewId: string; targetFieldId: string }[];
}

export interface ShareLink {
  /** null until the link is first enabled: opening the dialog creates nothing. */
  id: string | null;
  resourceId?: string;
  valid: boolean;
  enablePwd: boolean;
  pwd?: string | null;
  overTime?: number | null;
  locked?: boolean;
  uri?: string | null;
  /** Other sites may frame the link page (their origins in `embedOrigins`). */
  allowEmbed?: boolean;
  embedOrigins?: string[];
  /** The tenant requires a password on every link: it is turned on with one, and the password stays on. */
  pwdRequired?: boolean;
  /** The caller (a tenant administrator) may switch that rule. */
  canRequirePwd?: boolean;
}

/** The tenant's reports settings (tenant administrators). */
export interface ReportSettings {
  requireLinkPassword: boolean;
}

export interface ShareLinkUpdate {
  id: string;
  valid?: boolean;
  enablePwd?: boolean;
  pwd?: string;
  overTime?: number;
  clearOverTime?: boolean;
  unlock?: boolean;
  allowEmbed?: boolean;
  embedOrigins?: string[];
}

export type SubjectType = 'user' | 'role';

export interface Grant {
  subjectType: SubjectType;
  subjectId: string;
  subjectName?: string;
  view: boolean;
  export: boolean;
  manage: boolean;
}

export interface Subjects {
  users: { id: string; name: string; account?: string }[];
  roles: { id: string; name: string }[];
}

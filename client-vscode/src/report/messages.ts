// Messages between the report panel (extension host) and its webview script.
import type { ReportQuery } from '../protocol';
import type { ReportView } from './reportData';

export type ToWebview =
  | { type: 'report'; view: ReportView }
  /** Nothing to show, e.g. the file is no longer a paired hypothesis or the server is down. */
  | { type: 'unavailable'; fileName: string; reason: string };

export type FromWebview =
  /** The webview (re)loaded and wants the current data. */
  | { type: 'ready' }
  /** A table row was chosen: show that 0-based line of the hypothesis. */
  | { type: 'reveal'; line: number }
  /** Show other rows: another page, order or filter. */
  | { type: 'query'; query: ReportQuery };

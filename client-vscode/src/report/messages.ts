// Messages between the report panel (extension host) and its webview script.
import type { ReportQuery } from '../protocol';
import type { AgreementView } from './agreementData';
import type { ReportView } from './reportData';

export type ToWebview =
  /** A paired hypothesis's report; with its agreement with the other annotators if it is one of them too. */
  | { type: 'report'; view: ReportView; agreement?: AgreementView }
  /** An annotator's file that is not a paired hypothesis: its agreement view alone. */
  | { type: 'agreement'; agreement: AgreementView }
  /** Nothing to show, e.g. the file is no longer a paired hypothesis or the server is down. */
  | { type: 'unavailable'; fileName: string; reason: string };

export type FromWebview =
  /** The webview (re)loaded and wants the current data. */
  | { type: 'ready' }
  /** A table row was chosen: show that 0-based line of the hypothesis. */
  | { type: 'reveal'; line: number }
  /** An annotator's version of a segment was chosen: show that 0-based line of its file. */
  | { type: 'open'; uri: string; line: number }
  /** Show other rows: another page, order or filter. */
  | { type: 'query'; query: ReportQuery };

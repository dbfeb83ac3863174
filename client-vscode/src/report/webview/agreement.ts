// The report's agreement view: the matrix of each metric (row: the reference, column: the annotator
// scored against it, the opened annotator's column marked) and the segments the annotators
// disagree on most, each annotator's version a row that opens its file at that line.
import type { AgreementTable, AgreementView } from '../agreementData';
import { el } from './dom';

function renderMatrix(view: AgreementView, table: AgreementTable): HTMLElement {
  const mine = view.own;
  const head = el('tr', {}, el('th', { text: 'reference ↓ · scored →' }), ...view.names.map((name, j) => el('th', { className: j === mine ? 'own num' : 'num', text: name })));
  const rows = table.rows.map((row) =>
    el('tr', {}, el('th', { text: row.name }), ...row.cells.map((cell, j) => {
      const td = el('td', { className: j === mine ? 'own num' : 'num', text: cell });
      if (cell !== '–') td.title = `${view.names[j]} scored against ${row.name}`;
      return td;
    })),
  );
  const matrix = el('table', { className: 'matrix' }, el('thead', {}, head), el('tbody', {}, ...rows));
  return el('figure', { className: 'matrix-figure' }, el('figcaption', { text: table.title }), matrix, el('p', { className: 'muted' }, el('code', { text: table.signature })));
}

export function renderAgreement(view: AgreementView, open: (uri: string, line: number) => void): HTMLElement {
  const note = `${view.names.length} annotators (${view.rule}), ${view.segments.toLocaleString('en')} segments. Row: the reference; column: the annotator scored against it.`;
  const problems = view.problems.map((p) => el('p', { className: 'note', text: p }));
  const matrices = el('div', { className: 'matrices' }, ...view.tables.map((t) => renderMatrix(view, t)));
  const worst = el('table', { className: 'segments worst' });
  worst.append(el('thead', {}, el('tr', {}, el('th', { text: 'Segment' }), el('th', { text: view.rankedBy }), el('th', { text: 'Annotator' }), el('th', { text: 'Text' }))));
  const body = el('tbody');
  for (const s of view.worst) {
    s.versions.forEach((v, k) => {
      const tr = el('tr', { className: v.own ? 'segment own' : 'segment' });
      if (k === 0) {
        const first = el('td', { className: 'num', text: String(s.segment) });
        const mean = el('td', { className: 'num', text: s.disagreement });
        first.rowSpan = mean.rowSpan = s.versions.length;
        tr.append(first, mean);
      }
      tr.append(el('td', { text: v.name }), el('td', { className: 'texts' }, el('div', { className: 'hyp', text: v.text })));
      const line = v.line;
      if (line !== null) {
        tr.tabIndex = 0;
        tr.title = `Go to ${v.name}, line ${line + 1}`;
        tr.addEventListener('click', () => open(v.uri, line));
        tr.addEventListener('keydown', (e) => e.key === 'Enter' && open(v.uri, line));
      }
      body.append(tr);
    });
  }
  worst.append(body);
  const worstNote = view.worst.length ? 'Click a version to go to its line.' : 'Nowhere: the annotators agree on every segment.';
  return el(
    'section',
    { className: 'agreement' },
    el('h2', { text: 'Agreement between annotators' }),
    el('p', { className: 'muted', text: note }),
    ...problems,
    matrices,
    el('h2', { text: 'Where the annotators disagree most' }),
    el('p', { className: 'muted', text: worstNote }),
    worst,
  );
}

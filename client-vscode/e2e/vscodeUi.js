// Driving and reading VS Code's workbench (code-server) through the DOM with playwright-core.
// Selectors are VS Code's own class names; what they mean is noted where it is not obvious.
'use strict';
const fs = require('node:fs');

/** VS Code renders spaces in hovers and lists as U+00A0 and breaks text over elements. */
const clean = (text) => (text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();

/** In the page: whether the quick input is shown and has the focus, its text beginning with `prefix`. */
const quickInputFocused = (prefix) => {
  const a = document.activeElement;
  return !!a && a.matches('.quick-input-widget .quick-input-box input') && a.offsetParent !== null && a.value.startsWith(prefix);
};

class VsCode {
  constructor(page) {
    this.page = page;
  }

  async waitForWorkbench() {
    await this.page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 90_000 });
  }

  /**
   * Opens a quick input with `keys` and returns its input box once it has the keyboard focus.
   * The widget stays in the DOM between uses, so "visible" is not enough: a key press that lands
   * while another part has focus would type into the editor instead. Retried when it does not open.
   */
  async quickInput(keys, prefix = '') {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press(keys);
      try {
        await this.page.waitForFunction(quickInputFocused, prefix, { timeout: 5_000 });
        return input;
      } catch (error) {
        if (attempt === 3) throw new Error(`${keys} did not open a focused quick input: ${error.message}`);
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Opens a quick input with `keys` and types `text` into it. The input can close between its focus
   * and the typing (once in CI, a Go to Line right after a settings change waited 30 s on an input
   * that was no longer shown): opened again then.
   */
  async fillQuickInput(keys, prefix, text) {
    for (let attempt = 1; ; attempt++) {
      const input = await this.quickInput(keys, prefix);
      try {
        await input.fill(text, { timeout: 5_000 });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Presses Enter in the quick input holding `text`, only while it has the focus: a key goes
   * wherever the focus is, and once the Go to Line input closed after it was typed into and the
   * Enter meant for it broke the line at the editor's cursor. False if it has not within 2 s.
   */
  async enterInQuickInput(text) {
    const focused = await this.page.waitForFunction(quickInputFocused, text, { timeout: 2_000 }).then(() => true, () => false);
    if (focused) await this.page.keyboard.press('Enter');
    return focused;
  }

  /**
   * Opens a quick input with `keys`, types `text`, waits for `ready` (the row Enter is to pick) and
   * presses Enter while the input still has the focus; opened again when `ready` fails or the focus
   * went (three tries).
   */
  async submitQuickInput(keys, prefix, text, ready = async () => undefined) {
    for (let attempt = 1; ; attempt++) {
      await this.fillQuickInput(keys, prefix, text);
      try {
        await ready();
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press('Escape');
        continue;
      }
      if (await this.enterInQuickInput(text)) return;
      if (attempt === 3) throw new Error(`${keys}: the quick input lost the focus before Enter, three times (${text})`);
    }
  }

  /**
   * Quick Open: results arrive asynchronously, and Enter before the row exists does nothing.
   * `query` may be the file's absolute path: found even before the workspace's file index has it.
   * VS Code in a browser asks before it shows a file over 10 MB: `large` answers "Open Anyway".
   */
  async openFile(name, query = name, { large = false } = {}) {
    await this.submitQuickInput('Control+P', '', query, () => this.page.waitForSelector(`.quick-input-list .monaco-list-row[aria-label*="${name}"]`, { timeout: 30_000 }));
    await this.page.waitForSelector(`.tab.active[aria-label*="${name}"]`, { timeout: 20_000 });
    if (large) await this.page.locator('.editor-group-container.active .monaco-button', { hasText: 'Open Anyway' }).click({ timeout: 30_000 });
    await this.page.waitForSelector('.editor-group-container.active .monaco-editor .view-lines', { timeout: 60_000 });
  }

  /**
   * Runs a command by its palette title (e.g. "ScoreLens: Show Report"). Once in CI, right after the
   * workbench loaded, the palette did not focus the typed title's row in 20 s (its screenshot was
   * not kept): closed and opened again then, as a user would.
   */
  async runCommand(title) {
    const row = this.page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
    await this.submitQuickInput('Control+Shift+P', '>', `>${title}`, () => row.waitFor({ timeout: 10_000 }));
  }

  /** Puts the cursor at the start of `line` (1-based) and waits for the status bar to say so. */
  async goToLine(line) {
    await this.submitQuickInput('Control+G', ':', `:${line}`);
    await this.waitFor(`the cursor on line ${line}`, () => this.cursorStatus(), (t) => t?.startsWith(`Ln ${line},`), 10_000);
    await this.waitForEditorFocus();
  }

  /** Takes the quick fix titled `title` on `line` (1-based), the cursor at the line's start. */
  async quickFix(line, title) {
    await this.focusEditor();
    await this.goToLine(line);
    await this.page.keyboard.press('Home');
    const action = this.page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
    // Pressed before the editor has asked for the line's code actions, Ctrl+. may show none: ask again.
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.');
      try {
        await action.waitFor({ timeout: 7_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
    await action.click();
  }

  /** The "Ln x, Col y" status bar item. */
  async cursorStatus() {
    return (await this.statusBarItems()).find((t) => /^Ln \d+, Col \d+/.test(t));
  }

  async waitForEditorFocus() {
    await this.page.waitForFunction(() => !!document.activeElement?.closest('.editor-group-container.active .monaco-editor'), undefined, { timeout: 10_000 });
  }

  async statusBarItems() {
    return this.page.$$eval('.part.statusbar .statusbar-item', (items) =>
      items.filter((i) => i.offsetParent !== null).map((i) => (i.innerText || '').replace(/[\s\u00a0]+/g, ' ').trim()),
    );
  }

  /**
   * The ScoreLens status bar item's scores, or undefined when it is hidden; without the last
   * edit's changes (` (+0.000031)` after each score) unless `withChange`.
   */
  async scoresStatus({ withChange = false } = {}) {
    const text = (await this.statusBarItems()).find((t) => /\bBLEU\b|\bWER\b|\bROUGE|\bPPL\b/.test(t));
    return withChange || text === undefined ? text : text.replace(/ \((?:[+−]\d+\.\d+|±0)\)/g, '');
  }

  async waitFor(what, probe, predicate, timeout = 30_000) {
    const end = Date.now() + timeout;
    let last;
    while (Date.now() < end) {
      last = await probe();
      if (predicate(last)) return last;
      await this.page.waitForTimeout(250);
    }
    const seen = JSON.stringify(last, (key, value) => (key === 'charBoxes' ? undefined : value)) ?? 'nothing';
    throw new Error(`timed out waiting for ${what}; last seen: ${seen.slice(0, 800)}`);
  }

  /**
   * The active editor's rendered lines: 1-based number, the document text, the inlay hint labels,
   * and for each squiggle of `kind` the run of document columns it covers (the characters whose
   * centre lies under it). Inlay hints are injected text: spans with a generated `dyn-rule-*`
   * class inside the line; their text is not part of the document.
   */
  async editorLines(kind = 'info') {
    return this.page.evaluate((kind) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return [];
      const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((n) => ({
        line: Number(n.textContent),
        rect: n.getBoundingClientRect(),
      }));
      const lineAt = (y) => numbers.find((n) => y >= n.rect.top && y < n.rect.bottom)?.line;
      const isHint = (node) => /(^|\s)dyn-rule-/.test(node.parentElement?.className ?? '');
      const rows = new Map();
      // One Range for every character: the browser updates each live Range on every DOM change
      // until it is collected, so a Range per character (thousands a call, polled) made each of
      // the workbench's own line renders take milliseconds a line while this test watched.
      const range = document.createRange();
      for (const view of editor.querySelectorAll('.view-lines .view-line')) {
        const rect = view.getBoundingClientRect();
        const line = lineAt(rect.top + rect.height / 2);
        if (!line) continue;
        const chars = [];
        const hints = [];
        const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (isHint(node)) {
            if (node.data.trim()) hints.push(node.data.replace(/\u00a0/g, ' ').trim());
            continue;
          }
          for (let i = 0; i < node.data.length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const r = range.getBoundingClientRect();
            chars.push({ ch: node.data[i] === '\u00a0' ? ' ' : node.data[i], x: r.left + r.width / 2, y: r.top + r.height / 2 });
          }
        }
        rows.set(line, { line, text: chars.map((c) => c.ch).join(''), chars, hints, squiggles: [] });
      }
      for (const sq of editor.querySelectorAll(`.view-overlays .squiggly-${kind}`)) {
        const r = sq.getBoundingClientRect();
        const row = rows.get(lineAt(r.top + r.height / 2));
        if (!row) continue;
        const cols = row.chars.map((c, i) => (c.x >= r.left && c.x <= r.right ? i : -1)).filter((i) => i >= 0);
        if (cols.length) row.squiggles.push([cols[0], cols[cols.length - 1] + 1]);
      }
      return [...rows.values()]
        .sort((a, b) => a.line - b.line)
        .map(({ chars, ...row }) => ({ ...row, charBoxes: chars.map((c) => [c.x, c.y]) }));
    }, kind);
  }

  /**
   * The active editor's rendered lines, number and document text only (inlay hints left out),
   * matched by their position style, without measuring anything: cheap enough to poll while the
   * workbench's long tasks are recorded, where editorLines' box of every character is a long task
   * of the test's own.
   */
  async lineTexts() {
    return this.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return [];
      const numberAt = new Map(
        [...editor.querySelectorAll('.margin-view-overlays > div')].map((d) => [d.style.top, Number(d.querySelector('.line-numbers')?.textContent)]),
      );
      return [...editor.querySelectorAll('.view-lines .view-line')]
        .map((view) => {
          let text = '';
          const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!/(^|\s)dyn-rule-/.test(node.parentElement?.className ?? '')) text += node.data;
          }
          return { line: numberAt.get(view.style.top), text: text.replace(/\u00a0/g, ' ') };
        })
        .filter((row) => row.line)
        .sort((a, b) => a.line - b.line);
    });
  }

  /**
   * Per editor group, left to right: the active tab's label and the number of the first line that
   * shows whole in its editor (VS Code's visibleRanges leave out a line cut off at the top).
   */
  async firstVisibleLines() {
    return this.page.$$eval('.editor-group-container', (groups) =>
      groups
        .map((group) => {
          const guard = group.querySelector('.monaco-editor .overflow-guard');
          if (!guard) return undefined;
          const top = guard.getBoundingClientRect().top;
          const shown = [...guard.querySelectorAll('.margin-view-overlays .line-numbers')]
            .filter((n) => n.getBoundingClientRect().top >= top - 1)
            .map((n) => Number(n.textContent));
          return { tab: group.querySelector('.tab.active')?.getAttribute('aria-label') ?? '', line: Math.min(...shown) };
        })
        .filter(Boolean),
    );
  }

  /**
   * Replaces the user (or with `scope` 'Workspace', the workspace's) settings, the file `file`,
   * with `settings` in the settings.json editor and saves, as a user would: code-server does not
   * notice the file changing on disk. The editor may open as a tab or, in newer VS Code, as a
   * modal over the workbench: either way it has the focus.
   */
  async editSettings(settings, file, scope = 'User') {
    // One line: the editor would indent every pasted line by the one before.
    const text = JSON.stringify(settings);
    const firstKey = JSON.stringify(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')))[0]);
    await this.runCommand(`Preferences: Open ${scope} Settings (JSON)`);
    await this.page.waitForFunction(
      (key) => document.activeElement?.closest('.monaco-editor')?.querySelector('.view-lines')?.textContent.includes(key),
      firstKey,
      { timeout: 20_000 },
    );
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.insertText(text);
    // The editor may have closed the first brace and quote itself: they stand after the cursor.
    await this.page.keyboard.press('Control+Shift+End');
    await this.page.keyboard.press('Delete');
    await this.page.keyboard.press('Control+S');
    await this.waitFor('settings.json saved', async () => fs.readFileSync(file, 'utf8').trim(), (t) => t === text, 10_000);
    await this.page.keyboard.press('Control+W');
    // The editor may not know yet that the save is done and ask to save again: same text, so yes.
    const save = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Save$/ });
    if (await save.waitFor({ timeout: 1_000 }).then(() => true, () => false)) await save.click();
    await this.page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Keyboard focus into the active editor (not a panel or a widget). */
  async focusEditor() {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+1');
    await this.waitForEditorFocus();
  }

  /**
   * Hovers the character at `column` (0-based) of `line` and returns the hover's text once
   * `complete(text)` holds: the diagnostics part and the server's markdown arrive separately.
   * The position is measured right before the mouse moves, and measured again when no such hover
   * comes: a code lens or inlay hint that arrives late moves the text.
   */
  async hoverOn(line, column, complete, timeout = 30_000) {
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content').first();
    const end = Date.now() + timeout;
    let last = '';
    while (Date.now() < end) {
      const row = (await this.editorLines()).find((r) => r.line === line);
      if (row?.charBoxes[column]) {
        await this.page.mouse.move(5, 5);
        await this.page.mouse.move(...row.charBoxes[column]);
        const settle = Date.now() + 5_000;
        while (Date.now() < settle) {
          last = clean(await hover.innerText({ timeout: 250 }).catch(() => ''));
          if (complete(last)) return last;
          await this.page.waitForTimeout(200);
        }
      }
    }
    throw new Error(`timed out waiting for the hover on line ${line}, column ${column + 1}; last seen: ${last.slice(0, 400) || 'none'}`);
  }

  /** Waits for the hover's scroll bar to fade out (it shows while the content changes): steady pictures. */
  async hoverSettled() {
    await this.page
      .waitForFunction(() => [...document.querySelectorAll('.monaco-hover:not(.hidden) .scrollbar')].every((b) => getComputedStyle(b).opacity === '0'), undefined, { timeout: 5_000 })
      .catch(() => undefined);
  }

  /** Problems panel rows as displayed (file rows carry their problem count). */
  async problemRows() {
    await this.page.waitForSelector('.markers-panel .monaco-list-row', { timeout: 20_000 });
    return this.page.$$eval('.markers-panel .monaco-list-row', (rows) =>
      rows.map((r) => ({ label: r.getAttribute('aria-label') ?? '', text: (r.innerText || '').replace(/[\s\u00a0]+/g, ' ').trim() })),
    );
  }

  /** Rows of the Extensions view's list: aria-label and displayed text. */
  async extensionRows() {
    return this.page.$$eval('.extensions-viewlet .monaco-list-row', (rows) =>
      rows.map((r) => ({ label: r.getAttribute('aria-label') ?? '', text: (r.innerText || '').replace(/[\s\u00a0]+/g, ' ').trim() })),
    );
  }

  /** The frame that holds the report webview's document (webviews nest two iframes deep). */
  async reportFrame(timeout = 30_000) {
    return this.webviewFrame('#report', 'the report webview', timeout);
  }

  /** The frame of a webview whose document has `selector`. */
  async webviewFrame(selector, what, timeout = 30_000) {
    const end = Date.now() + timeout;
    while (Date.now() < end) {
      for (const frame of this.page.frames()) {
        try {
          if (await frame.$(selector)) return frame;
        } catch {
          // frames come and go while the webview loads
        }
      }
      await this.page.waitForTimeout(250);
    }
    throw new Error(`${what} did not appear`);
  }
}

module.exports = { VsCode, clean };

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextAbove, lineToRevealAtTop, RevealContext } from '../src/revealAtTop';

/** VS Code's defaults, in an editor 40 lines high. */
const defaults: RevealContext = { cursorSurroundingLines: 0, stickyScrollEnabled: true, stickyScrollMaxLineCount: 5, viewportLines: 40 };

describe('lineToRevealAtTop', () => {
  it('reveals the line sticky scroll keeps below the top, so the wanted line ends up first', () => {
    // Seen in code-server: revealing line 20 at top left line 15 first.
    assert.equal(lineToRevealAtTop(20, 200, defaults), 25);
    assert.equal(lineToRevealAtTop(0, 200, defaults), 5);
  });
  it('reveals the line itself when neither sticky scroll nor surrounding lines keep context', () => {
    assert.equal(lineToRevealAtTop(20, 200, { ...defaults, stickyScrollEnabled: false }), 20);
  });
  it('keeps the larger of cursorSurroundingLines and the sticky lines', () => {
    assert.equal(contextAbove({ ...defaults, cursorSurroundingLines: 8 }), 8);
    assert.equal(contextAbove({ ...defaults, cursorSurroundingLines: 3 }), 5);
    assert.equal(contextAbove({ ...defaults, stickyScrollEnabled: false, cursorSurroundingLines: 3 }), 3);
  });
  it('keeps at most half a small viewport, counting a part line as a line', () => {
    assert.equal(contextAbove({ ...defaults, viewportLines: 7 }), 4);
    assert.equal(contextAbove({ ...defaults, viewportLines: 1 }), 1);
  });
  it('stops at the last line of a shorter document', () => {
    assert.equal(lineToRevealAtTop(197, 200, defaults), 199);
    assert.equal(lineToRevealAtTop(20, 10, defaults), 9);
    assert.equal(lineToRevealAtTop(0, 0, defaults), 0);
  });
});

" Sourced by test_vim.py after docs/editors.md's vimrc: every 200 ms, write what Vim holds for the
" hypothesis (ALE's diagnostics, the text, ALE's preview window) as JSON to $SCORELENS_STATE.
" The test types its commands in the terminal, as a user does, and reads this and the screen.
let s:dumps = 0

function! s:Dump(timer) abort
  let l:buffer = bufnr(expand('$SCORELENS_HYP'))
  let l:preview = filter(range(1, bufnr('$')), {_, b -> getbufvar(b, '&filetype') is# 'ale-preview.message'})
  let s:dumps += 1
  let l:state = {
  \   'dumps': s:dumps,
  \   'filetype': getbufvar(l:buffer, '&filetype'),
  \   'lines': getbufline(l:buffer, 1, '$'),
  \   'preview': empty(l:preview) ? [] : getbufline(l:preview[-1], 1, '$'),
  \   'diagnostics': map(copy(ale#engine#GetLoclist(l:buffer)), {_, i -> {
  \       'line': i.lnum - 1, 'col': i.col - 1, 'code': get(i, 'code', ''), 'text': i.text,
  \       'linter': i.linter_name}}),
  \}
  call writefile([json_encode(l:state)], $SCORELENS_STATE . '.tmp')
  call rename($SCORELENS_STATE . '.tmp', $SCORELENS_STATE)
endfunction

call timer_start(200, function('s:Dump'), {'repeat': -1})

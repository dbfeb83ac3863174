-- Run by test_neovim.py in a headless Neovim: load the README's configuration, open a
-- hypothesis, wait for ScoreLens, and print what the editor got as JSON.
dofile(vim.env.SCORELENS_INIT)
vim.cmd.edit(vim.env.SCORELENS_HYP)
local buf = vim.api.nvim_get_current_buf()
vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local hints = {}
vim.wait(20000, function()
  hints = vim.lsp.inlay_hint.get({ bufnr = buf })
  return #hints > 0
end, 50)

local labels = {}
for _, h in ipairs(hints) do
  local label = h.inlay_hint.label
  table.insert(labels, type(label) == "table" and label[1].value or label)
end
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(diagnostics, { line = d.lnum, col = d.col, code = d.code, message = d.message })
end

local client = vim.lsp.get_clients({ bufnr = buf, name = "scorelens" })[1]
local hover
if client and #diagnostics > 0 then
  local first = vim.diagnostic.get(buf)[1]
  local response = client:request_sync("textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = first.lnum, character = first.col },
  }, 20000, buf)
  hover = response and response.result and response.result.contents.value
end

io.stdout:write(vim.json.encode({
  attached = client ~= nil,
  encoding = client and client.offset_encoding,
  pulls = client and client.server_capabilities.diagnosticProvider ~= nil,
  diagnostics = diagnostics,
  hints = labels,
  hover = hover,
}))
vim.cmd("qa!")

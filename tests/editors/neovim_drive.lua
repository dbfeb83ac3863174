-- Run by test_neovim.py in a headless Neovim (0.7 and 0.11): load docs/editors.md's configuration,
-- open the hypothesis, and go through what a user does, waiting on conditions. Prints what the
-- editor showed as JSON, then quits. A stage that fails is named in `failed` and the next one
-- still runs (each test reads its own stage); without a client none can.
local seen = { failed = {} }
local buf, client

local function step(name, timeout_ms, condition)
  if not vim.wait(timeout_ms, condition, 50) then
    error("timed out waiting for " .. name)
  end
end

local function stage(name, body)
  local ok, err = pcall(body)
  if not ok then
    seen.failed[name] = tostring(err)
  end
  return ok
end

local function diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out[#out + 1] = { line = d.lnum, col = d.col, code = d.code, message = d.message }
  end
  return out
end

local function any(list, predicate)
  for _, x in ipairs(list) do
    if predicate(x) then
      return true
    end
  end
  return false
end

local function request(method, params)
  -- 0.11 made request_sync a method; 0.7 has it as a plain function field
  local response
  if vim.fn.has("nvim-0.11") == 1 then
    response = client:request_sync(method, params, 30000, buf)
  else
    response = client.request_sync(method, params, 30000, buf)
  end
  return response and response.result
end

local function notify(method, params)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function settings()
  return vim.fn.has("nvim-0.11") == 1 and client.settings or client.config.settings
end

local function finding_on_line0()
  for _, d in ipairs(diagnostics()) do
    if d.code == "wer.substitution" and d.line == 0 then
      return d
    end
  end
end

local function start()
  dofile(vim.env.SCORELENS_INIT)
  vim.cmd("edit " .. vim.fn.fnameescape(vim.env.SCORELENS_HYP))
  buf = vim.api.nvim_get_current_buf()
  step("the client", 30000, function()
    local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = buf, name = "scorelens" })
      or vim.tbl_values(vim.lsp.buf_get_clients(buf))
    client = clients[1]
    return client ~= nil and client.initialized ~= false
  end)
  seen.encoding = client.offset_encoding
  step("diagnostics", 60000, function() return finding_on_line0() ~= nil end)
  seen.diagnostics = diagnostics()
end

local function inlay_hints()
  local labels = {}
  step("inlay hints", 30000, function()
    labels = {}
    for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
      local label = h.inlay_hint.label
      labels[#labels + 1] = type(label) == "table" and label[1].value or label
    end
    return #labels > 0
  end)
  seen.hints = labels
end

-- The hover on the first finding, as Neovim renders it for its floating window.
local function hover()
  vim.api.nvim_win_set_cursor(0, { 1, finding_on_line0().col })
  local result = request("textDocument/hover", vim.lsp.util.make_position_params(0, client.offset_encoding))
  seen.hover = result and table.concat(vim.lsp.util.convert_input_to_markdown_lines(result.contents), "\n")
end

-- A quick fix, through Neovim's own code-action path (vim.ui.select stands in for the menu).
local function quick_fix()
  vim.api.nvim_win_set_cursor(0, { 1, finding_on_line0().col })
  seen.actions = {}
  vim.ui.select = function(items, _, on_choice)
    for i, item in ipairs(items) do
      local action = item.action or item[2]
      seen.actions[#seen.actions + 1] = action.title
      if action.title:find("^Replace with") then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  step("the quick fix's edit", 30000, function()
    return vim.api.nvim_buf_get_lines(buf, 0, 1, true)[1]:find("talked to", 1, true) ~= nil
  end)
  step("diagnostics after the quick fix", 30000, function() return finding_on_line0() == nil end)
  seen.after_fix = diagnostics()
end

-- An edit: "should" -> "will" on the second line.
local function edit()
  local second = vim.api.nvim_buf_get_lines(buf, 1, 2, true)[1]
  vim.api.nvim_buf_set_lines(buf, 1, 2, true, { (second:gsub("should", "will")) })
  step("diagnostics after the edit", 30000, function()
    return not any(diagnostics(), function(d) return d.line == 1 and d.message:find('"should"', 1, true) end)
  end)
  seen.after_edit = diagnostics()
end

-- Settings changed without a restart, as a user does from `:lua`: WER only.
local function change_settings()
  settings().scorelens.metrics = { "wer" }
  notify("workspace/didChangeConfiguration", { settings = settings() })
  step("diagnostics after the settings changed", 30000, function()
    local now = diagnostics()
    return #now > 0 and not any(now, function(d) return tostring(d.code):find("^bleu") end)
  end)
  seen.after_settings = diagnostics()
end

if stage("start", start) then
  if vim.lsp.inlay_hint then
    stage("inlay hints", inlay_hints)
  end
  stage("hover", hover)
  stage("quick fix", quick_fix)
  stage("edit", edit)
  stage("settings", change_settings)
end
io.stdout:write(vim.json and vim.json.encode(seen) or vim.fn.json_encode(seen))
vim.cmd("qa!")

-- Headless Neovim 0.7+ as a real LSP client of `node dist/server.js --stdio`: with
-- examples/summarize's test file and its workflow both open, an unsaved edit to the workflow
-- buffer (the agent key "reader" renamed "writer") changes the test file's diagnostics. Run by
-- check.mjs (`check.mjs workflowEdit.lua`), which copies examples/summarize to TURNLENS_SUMMARIZE.
local out = function(s) io.stdout:write(s .. '\n') end
local server = assert(os.getenv('TURNLENS_SERVER'), 'TURNLENS_SERVER is not set')
local folder = assert(os.getenv('TURNLENS_SUMMARIZE'), 'TURNLENS_SUMMARIZE is not set')
local node = os.getenv('TURNLENS_NODE') or 'node'
-- How long each wait may take: a guard against a true hang, not a budget (a loaded machine is slow).
local timeout = tonumber(os.getenv('TURNLENS_TIMEOUT_MS') or '120000')

local one_line = function(s) return (tostring(s):gsub('%s*\n%s*', ' | ')) end
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local open_file = dofile(here .. '/clientHelpers.lua').open_file

local codes_of = function(buf)
  local codes = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do codes[#codes + 1] = tostring(d.code) end
  table.sort(codes)
  return table.concat(codes, ',')
end

local client_id
local ok, err = pcall(function()
  client_id = vim.lsp.start_client({ name = 'turnlens', cmd = { node, server, '--stdio' }, root_dir = folder })
  assert(client_id, 'start_client failed')
  local client = vim.lsp.get_client_by_id(client_id)

  local test_file = folder .. '/summarize.test.ts'
  local test_buf = open_file(test_file, client_id)
  assert(vim.wait(timeout, function() return client.initialized end, 20), 'server did not initialize')
  -- Its tests have run once the first answer( entry has a hover (they pass: no diagnostics).
  local pos
  for i, l in ipairs(vim.api.nvim_buf_get_lines(test_buf, 0, -1, false)) do
    local col = l:find('answer(SUMMARY', 1, true)
    if col then pos = { line = i - 1, character = col } break end
  end
  assert(pos, 'no answer(SUMMARY in ' .. test_file)
  assert(vim.wait(timeout, function()
    local r = client.request_sync('textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(test_buf) }, position = pos }, 2000, test_buf)
    return r ~= nil and not r.err and r.result ~= nil and r.result.contents ~= nil
  end, 100), 'the tests of ' .. test_file .. ' did not run within ' .. timeout .. ' ms')
  out('BEFORE ' .. (codes_of(test_buf) == '' and '(no diagnostics)' or codes_of(test_buf)))

  -- The workflow's buffer is edited and left unsaved.
  local workflow_file = folder .. '/summarize.ts'
  local workflow_buf = open_file(workflow_file, client_id)
  local renamed = 0
  for i, l in ipairs(vim.api.nvim_buf_get_lines(workflow_buf, 0, -1, false)) do
    if l:find('key: "reader"', 1, true) then
      vim.api.nvim_buf_set_lines(workflow_buf, i - 1, i, true, { (l:gsub('key: "reader"', 'key: "writer"')) })
      renamed = renamed + 1
    end
  end
  assert(renamed == 1, 'the workflow has ' .. renamed .. ' lines with key: "reader"')
  out('EDITED ' .. vim.fn.fnamemodify(workflow_file, ':t') .. (vim.api.nvim_buf_get_option(workflow_buf, 'modified') and ' (unsaved)' or ' (saved?)'))
  local disk = table.concat(vim.fn.readfile(workflow_file), '\n')
  assert(disk:find('key: "reader"', 1, true), 'the workflow on disk changed')

  assert(vim.wait(timeout, function() return codes_of(test_buf):find('agent-unscripted', 1, true) ~= nil end, 50),
    'the test file\'s diagnostics did not change within ' .. timeout .. ' ms of the workflow edit')
  for _, d in ipairs(vim.diagnostic.get(test_buf)) do
    out(('DIAG %s:%d:%d [%s %s] %s'):format(vim.fn.fnamemodify(test_file, ':t'), d.lnum + 1, d.col + 1, d.source or '?', tostring(d.code), one_line(d.message)))
  end
end)

if ok then out('RESULT: OK') else out('RESULT: FAIL ' .. tostring(err)) end
if client_id then
  local client = vim.lsp.get_client_by_id(client_id)
  if client then
    client.stop()
    vim.wait(2000, function() return client.is_stopped() end, 20)
  end
end
vim.cmd(ok and 'qall!' or 'cquit 1')

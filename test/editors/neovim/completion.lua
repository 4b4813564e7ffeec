-- Headless Neovim 0.7+ as a real LSP client of `node dist/server.js --stdio`: completion inside an
-- answer(SCHEMA, value) of examples/feature-delivery's test file. Once its tests have run, a line is
-- edited in the buffer (Neovim sends the change), the client asks for completion at the cursor, and
-- Neovim's own conversion (the items its omnifunc popup shows) is printed. Run by check.mjs
-- (`check.mjs completion.lua`), which copies examples/feature-delivery to TURNLENS_PASSING.
local out = function(s) io.stdout:write(s .. '\n') end
local server = assert(os.getenv('TURNLENS_SERVER'), 'TURNLENS_SERVER is not set')
local folder = assert(os.getenv('TURNLENS_PASSING'), 'TURNLENS_PASSING is not set')
local node = os.getenv('TURNLENS_NODE') or 'node'
-- How long each wait may take: a guard against a true hang, not a budget (a loaded machine is slow).
local timeout = tonumber(os.getenv('TURNLENS_TIMEOUT_MS') or '120000')

local client_id
local ok, err = pcall(function()
  client_id = vim.lsp.start_client({
    name = 'turnlens', cmd = { node, server, '--stdio' }, root_dir = folder,
    capabilities = vim.lsp.protocol.make_client_capabilities(),
  })
  assert(client_id, 'start_client failed')
  local client = vim.lsp.get_client_by_id(client_id)
  local file = folder .. '/workflow.test.ts'
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  vim.bo[buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  assert(vim.wait(timeout, function() return client.initialized end, 20), 'server did not initialize')
  local provider = (client.server_capabilities or client.resolved_capabilities or {}).completionProvider
  out('COMPLETION PROVIDER ' .. (provider and table.concat(provider.triggerCharacters or {}, ' ') or 'none'))

  -- The line with the second planner answer: its tests have run once it has a hover.
  local row, col
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local found = l:find('answer(WORK, { docPath: doc, summary', 1, true)
    if found then row, col = i - 1, found break end
  end
  assert(row, 'no answer(WORK, { docPath: doc, summary in ' .. file)
  assert(vim.wait(timeout, function()
    local r = client.request_sync('textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }, 2000, buf)
    return r ~= nil and not r.err and r.result ~= nil and r.result.contents ~= nil
  end, 100), 'the tests of ' .. file .. ' did not run within ' .. timeout .. ' ms')

  -- The value cut to its first property and a partial name, as if typed; the cursor after "su".
  local line = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
  local edited = line:gsub('answer%(WORK, %b{}%)', 'answer(WORK, { docPath: doc, su })', 1)
  vim.api.nvim_buf_set_lines(buf, row, row + 1, false, { edited })
  local cursor = edited:find('su })', 1, true) + 1
  out('EDITED ' .. vim.trim(edited))
  local items
  assert(vim.wait(timeout, function()
    local r = client.request_sync('textDocument/completion',
      { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = cursor } }, 2000, buf)
    if r and not r.err and r.result then items = vim.lsp.util.text_document_completion_list_to_complete_items(r.result, 'su') return true end
    return false
  end, 100), 'no completion within ' .. timeout .. ' ms')
  for _, item in ipairs(items) do out(('ITEM %s | %s | %s'):format(item.word, item.abbr, item.menu)) end

  -- A whole new value: a snippet of the object WORK accepts, as plain text when the client takes no snippets.
  local whole = line:gsub('answer%(WORK, %b{}%)', 'answer(WORK, )', 1)
  vim.api.nvim_buf_set_lines(buf, row, row + 1, false, { whole })
  local at = whole:find('answer(WORK, )', 1, true) + #'answer(WORK, ' - 1
  local r = client.request_sync('textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = at } }, 5000, buf)
  assert(r and not r.err and r.result, 'no completion for a whole value')
  for _, item in ipairs(vim.lsp.util.text_document_completion_list_to_complete_items(r.result, '')) do out(('VALUE %s | %s'):format(item.word, item.menu)) end
end)

out(ok and 'RESULT: OK' or ('RESULT: FAIL ' .. tostring(err)))
if client_id then vim.lsp.stop_client(client_id, true) end
vim.cmd(ok and 'qa!' or 'cq!')

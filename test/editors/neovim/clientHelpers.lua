-- What the headless Neovim checks share, dofile'd by the scripts here and by
-- test/package/editors/neovim.lua: opening a file for the client, keeping what the server published,
-- and ending a check.
local M = {}

-- A file opened in a buffer the client is attached to (0.7 has no vim.lsp.start()).
function M.open_file(file, client_id)
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

-- The raw publishDiagnostics params as the server sent them, by uri, for the code-action request:
-- the global handler keeps each, then shows it as before. Returns the table it fills.
function M.keep_published()
  local published = {}
  local show = vim.lsp.handlers['textDocument/publishDiagnostics']
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
    published[result.uri] = result
    return show(e, result, ctx, config)
  end
  return published
end

-- Prints the check's RESULT line, stops every client (its server ends its workers), and quits
-- nvim with 0 when the check held, 1 when it did not.
function M.finish(ok, err, out)
  if ok then out('RESULT: OK') else out('RESULT: FAIL ' .. tostring(err)) end
  for _, client in pairs(vim.lsp.get_active_clients()) do
    client.stop()
    vim.wait(5000, function() return client.is_stopped() end, 50)
  end
  vim.cmd(ok and 'qall!' or 'cquit 1')
end

return M

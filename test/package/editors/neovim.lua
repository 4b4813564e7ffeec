-- Headless Neovim 0.7+ as a user's editor in a project with turnlens installed: the configuration of
-- docs/language-server.md for 0.7 (a FileType autocmd starting `npx turnlens lsp --stdio` in the
-- project; the test checks the doc holds it verbatim), then a test file's diagnostics and the
-- misspelled-option quick fix applied.
-- Run by test/package/package.test.ts with TURNLENS_PROJECT and TURNLENS_FILE set.
local out = function(s) io.stdout:write(s .. '\n') end
local project = assert(os.getenv('TURNLENS_PROJECT'), 'TURNLENS_PROJECT is not set')
local file = assert(os.getenv('TURNLENS_FILE'), 'TURNLENS_FILE is not set')
-- Waits on events; the bound only ends a hung check, so it is minutes on a loaded machine.
local timeout = tonumber(os.getenv('TURNLENS_TIMEOUT_MS') or '240000')
local one_line = function(s) return (tostring(s):gsub('%s*\n%s*', ' | ')) end
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local apply_unknown_option_fix = dofile(here .. '/../../editors/neovim/unknownOptionFix.lua')

-- Neovim turns filetype detection on after the init file; this one does its work inside it.
vim.cmd('filetype on')
local helpers = dofile(here .. '/../../editors/neovim/clientHelpers.lua')
local published = helpers.keep_published()

-- >>> docs/language-server.md, Neovim 0.7
local turnlens_clients = {}
-- 0.7 ignores the server's `workspace/codeLens/refresh` (and its codelens.refresh() serves only the
-- current buffer, dropping a call while one is in flight): ask again for every attached buffer's lenses.
local function turnlens_refresh_lenses(_, _, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  for _, buf in ipairs(client and vim.lsp.get_buffers_by_client_id(ctx.client_id) or {}) do
    client.request('textDocument/codeLens', { textDocument = { uri = vim.uri_from_bufnr(buf) } },
      vim.lsp.codelens.on_codelens, buf)
  end
  return vim.NIL
end
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'typescript', 'typescriptreact', 'javascript', 'javascriptreact' },
  callback = function(args)
    local name = vim.api.nvim_buf_get_name(args.buf)
    if not (name:match('%.test%.[cm]?[jt]sx?$') or name:match('%.spec%.[cm]?[jt]sx?$')) then return end
    local found = vim.fn.findfile('package.json', vim.fn.fnamemodify(name, ':h') .. ';')
    local root = vim.fn.fnamemodify(found ~= '' and found or name, ':p:h')
    turnlens_clients[root] = turnlens_clients[root] or vim.lsp.start_client({
      name = 'turnlens', cmd = { 'npx', 'turnlens', 'lsp', '--stdio' }, cmd_cwd = root, root_dir = root,
      -- so the server sends `workspace/codeLens/refresh` when a run starts and when its results arrive
      capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(),
        { workspace = { codeLens = { refreshSupport = true } } }),
      handlers = { ['workspace/codeLens/refresh'] = turnlens_refresh_lenses },
    })
    vim.lsp.buf_attach_client(args.buf, turnlens_clients[root])
  end,
})
-- <<< docs

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  out('FILETYPE ' .. vim.bo[buf].filetype)
  local client_id = turnlens_clients[project]
  assert(client_id, 'the FileType autocmd started no client for ' .. project)
  local client = vim.lsp.get_client_by_id(client_id)
  assert(vim.wait(timeout, function() return client.initialized end, 50), 'server did not initialize')

  local codes = function()
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do found[tostring(d.code)] = d end
    return found
  end
  -- the static diagnostic, and the one only a run in a worker gives
  assert(vim.wait(timeout, function() local c = codes() return c['unknown-option'] ~= nil and c['entry-never-reached'] ~= nil end, 50),
    'no unknown-option and entry-never-reached diagnostics within ' .. timeout .. ' ms')
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  for _, d in ipairs(diags) do
    out(('DIAG %d:%d [%s %s] %s'):format(d.lnum + 1, d.col + 1, d.source or '?', tostring(d.code), one_line(d.message)))
  end

  apply_unknown_option_fix({ client = client, buf = buf, published = published, timeout = timeout, out = out })
  -- the edit reached the server: the new version's diagnostics no longer name the option
  assert(vim.wait(timeout, function() return codes()['unknown-option'] == nil end, 50), 'unknown-option still reported after the fix')
  out('AFTER FIX unknown-option gone')
end)

helpers.finish(ok, err, out)

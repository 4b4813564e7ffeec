-- Headless Neovim 0.7 with the Neovim 0.7 configuration of docs/language-server.md, read from the
-- page itself (only its `npx turnlens lsp` becomes this clone's `node dist/server.js`): the failing
-- misspelled-option test's code lens shows its `✗` result, and after the quick fix makes the test
-- pass, the fresh `✓` result, in a window that is no longer the current one (0.7 ignores
-- `workspace/codeLens/refresh` unless the configuration handles it, and its codelens.refresh()
-- serves only the current buffer); a hover sent right after the fix shows the rerun's pass. Run by
-- check.mjs with TURNLENS_SERVER and TURNLENS_WS.
local out = function(s) io.stdout:write(s .. '\n') end
local server = assert(os.getenv('TURNLENS_SERVER'), 'TURNLENS_SERVER is not set')
local ws = assert(os.getenv('TURNLENS_WS'), 'TURNLENS_WS is not set')
local node = os.getenv('TURNLENS_NODE') or 'node'
-- How long each wait may take: a guard against a true hang, not a budget (a loaded machine is slow).
local timeout = tonumber(os.getenv('TURNLENS_TIMEOUT_MS') or '120000')
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local apply_unknown_option_fix = dofile(here .. '/unknownOptionFix.lua')

-- The page's Neovim 0.7 block, verbatim but for the command that starts the server.
local function documented_configuration()
  local page = table.concat(vim.fn.readfile(here .. '/../../../docs/language-server.md'), '\n')
  local section = assert(page:find('**Neovim 0.7**', 1, true), 'docs/language-server.md has no Neovim 0.7 section')
  local first = assert(page:find('```lua\n', section, true), 'no lua block in the Neovim 0.7 section') + #'```lua\n'
  local last = assert(page:find('\n```', first, true), 'the Neovim 0.7 lua block does not end')
  local block = page:sub(first, last)
  local npx = "cmd = { 'npx', 'turnlens', 'lsp', '--stdio' }"
  local at = assert(block:find(npx, 1, true), 'the Neovim 0.7 block does not start `npx turnlens lsp --stdio`')
  return block:sub(1, at - 1) .. ('cmd = { %q, %q, "--stdio" }'):format(node, server) .. block:sub(at + #npx)
end

vim.cmd('filetype on')
local helpers = dofile(here .. '/clientHelpers.lua')
local published = helpers.keep_published()

-- What Neovim shows as the code lenses of a line: the virtual text in the client's lens namespace.
local function lens_text(buf, client_id, line)
  local ns = vim.lsp.codelens.__namespaces[client_id]
  local parts = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, { line, 0 }, { line, -1 }, { details = true })) do
    for _, chunk in ipairs(mark[4].virt_text or {}) do table.insert(parts, chunk[1]) end
  end
  return table.concat(parts)
end

local ok, err = pcall(function()
  assert(load(documented_configuration(), 'docs/language-server.md (Neovim 0.7)'))()
  local file = ws .. '/misspelled-option.test.ts'
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  -- 0.7 lists a client among the active ones once it has initialized.
  assert(vim.wait(timeout, function() return #vim.lsp.get_active_clients() > 0 end, 50),
    'the documented configuration started no client that initialized')
  local client = vim.lsp.get_active_clients()[1]
  assert(client.name == 'turnlens', 'the client started is ' .. client.name)
  local test_line
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if not test_line and l:find('test("a misspelled option"', 1, true) then test_line = i - 1 end
  end
  assert(test_line, 'no test( line in ' .. file)

  -- The failing run's result reaches the lens, with no refresh asked for by the check itself.
  local shows = function(pattern) return lens_text(buf, client.id, test_line):find(pattern) ~= nil end
  local waited = vim.wait(timeout, function() return shows('✗') end, 50)
  out(('LENS BEFORE FIX %d: %s'):format(test_line + 1, lens_text(buf, client.id, test_line)))
  assert(waited, 'the lens showed no ✗ result within ' .. timeout .. ' ms')

  apply_unknown_option_fix({ client = client, buf = buf, published = published, timeout = timeout, out = out })
  -- One hover on the test, sent at once, while the fixed test reruns: the server waits for the rerun
  -- (its hoverWaitMs) and answers with it, not with the failing run before the fix.
  local hovered = client.request_sync('textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = test_line, character = 2 } }, timeout, buf)
  local contents = hovered and not hovered.err and hovered.result and hovered.result.contents
  local first = contents and vim.lsp.util.convert_input_to_markdown_lines(contents)[1] or '(no hover)'
  out(('HOVER AFTER FIX %d: %s'):format(test_line + 1, first))
  -- The user moves on to a new window while the rerun goes: the fixed file's lens, still on screen,
  -- refreshes though its buffer is no longer the current one.
  vim.cmd('split | enew')
  out(('CURRENT BUFFER %s'):format(vim.api.nvim_get_current_buf() == buf and 'the fixed file' or 'a new one'))
  local codes = function()
    local found = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do found[tostring(d.code)] = true end
    return found
  end
  -- Done when the rerun has ended too: the top lens is back to `▶ Run file` from `⟳ Running…`.
  local ended = function() return lens_text(buf, client.id, 0) == '▶ Run file' end
  assert(vim.wait(timeout, function() return not codes()['unknown-option'] and shows('✓') and ended() end, 50),
    'after the fix, the lens still shows "' .. lens_text(buf, client.id, test_line) .. '" (no ✓ within ' .. timeout .. ' ms)')
  out(('LENS AFTER FIX %d: %s'):format(test_line + 1, lens_text(buf, client.id, test_line)))
  out(('LENS AFTER FIX 1: %s'):format(lens_text(buf, client.id, 0)))
end)

helpers.finish(ok, err, out)

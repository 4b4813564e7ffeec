-- Headless Neovim 0.7+ as a real LSP client of `node dist/server.js --stdio`: diagnostics, the
-- misspelled-option quick fix applied, a hover on an answer(...) entry, an event's diagnostic on its
-- events element's during, a hover and an inlay hint on a messages entry. Run by check.mjs, which copies
-- examples/mistakes (TURNLENS_WS) and examples/feature-delivery (TURNLENS_PASSING) to a temp
-- folder and keeps nvim's XDG_* dirs there too.
local out = function(s) io.stdout:write(s .. '\n') end
local server = assert(os.getenv('TURNLENS_SERVER'), 'TURNLENS_SERVER is not set')
local ws = assert(os.getenv('TURNLENS_WS'), 'TURNLENS_WS is not set')
local passing = assert(os.getenv('TURNLENS_PASSING'), 'TURNLENS_PASSING is not set')
local node = os.getenv('TURNLENS_NODE') or 'node'
-- How long each wait may take: a guard against a true hang, not a budget (a loaded machine is slow).
local timeout = tonumber(os.getenv('TURNLENS_TIMEOUT_MS') or '120000')

local one_line = function(s) return (tostring(s):gsub('%s*\n%s*', ' | ')) end
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local apply_unknown_option_fix = dofile(here .. '/unknownOptionFix.lua')
local open_file = dofile(here .. '/clientHelpers.lua').open_file

-- The position just inside the first line `needle` is on that also passes `keep`.
local position_of = function(buf, needle, keep)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = l:find(needle, 1, true)
    if col and keep(l) then return { line = i - 1, character = col } end
  end
end

-- The hover at `pos` once the server has one (its tests have run), as one markdown text.
local hover_text = function(client, buf, pos, what)
  local hover
  assert(vim.wait(timeout, function()
    local r = client.request_sync('textDocument/hover',
      { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos }, 2000, buf)
    if r and not r.err and r.result and r.result.contents then hover = r.result return true end
    return false
  end, 100), 'no hover on ' .. what .. ' within ' .. timeout .. ' ms')
  return table.concat(vim.lsp.util.convert_input_to_markdown_lines(hover.contents), '\n')
end

local print_diagnostics = function(file, buf)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    out(('DIAG %s:%d:%d [%s %s] %s'):format(vim.fn.fnamemodify(file, ':t'), d.lnum + 1, d.col + 1,
      d.source or '?', tostring(d.code), one_line(d.message)))
  end
end

-- Raw publishDiagnostics params as the server sent them, before Neovim converts them.
local published = {}
local handlers = {
  ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
    published[result.uri] = result
    return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
  end,
}

local client_id
local ok, err = pcall(function()
  client_id = vim.lsp.start_client({
    name = 'turnlens',
    cmd = { node, server, '--stdio' },
    root_dir = ws,
    handlers = handlers,
  })
  assert(client_id, 'start_client failed')
  local client = vim.lsp.get_client_by_id(client_id)

  -- 1. the misspelled option: diagnostics, then the quick fix
  local file = ws .. '/misspelled-option.test.ts'
  local buf = open_file(file, client_id)
  assert(vim.wait(timeout, function() return client.initialized end, 20), 'server did not initialize')
  out('SERVER ' .. ((client.server_capabilities or {}).hoverProvider and 'initialized, hover provider' or 'initialized'))

  local unknown
  local find_unknown = function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'unknown-option' then unknown = d return true end
    end
    return false
  end
  assert(vim.wait(timeout, find_unknown, 20), 'no unknown-option diagnostic within ' .. timeout .. ' ms')
  print_diagnostics(file, buf)

  -- the code-action request carries the diagnostic exactly as the server published it
  local _, line = apply_unknown_option_fix({ client = client, buf = buf, published = published, timeout = 5000, out = out })
  assert(line:find('agents:', 1, true) and not line:find('agnets', 1, true), 'the line does not say agents: after the fix')
  -- the edit reached the server: its diagnostics for the new version no longer name the option
  assert(vim.wait(timeout, function() return not find_unknown() end, 20), 'unknown-option still reported after the fix')
  out('AFTER FIX unknown-option gone')

  -- 2. another mistake: a hover on its first answer(...) entry, once its tests have run
  local file2 = ws .. '/entry-never-reached.test.ts'
  local buf2 = open_file(file2, client_id)
  local pos = position_of(buf2, 'answer(', function(l) return not l:find('import', 1, true) end)
  assert(pos, 'no answer( call in ' .. file2)
  local text = hover_text(client, buf2, pos, 'answer(')
  print_diagnostics(file2, buf2)
  out(('HOVER %s:%d:%d %s'):format(vim.fn.fnamemodify(file2, ':t'), pos.line + 1, pos.character + 1, one_line(text)))
  assert(text:find('writer', 1, true) and (text:find('turn 1', 1, true) or text:find('#1', 1, true)),
    "the hover does not name the writer's turn 1")

  -- 3. an event whose turn never comes: its diagnostic sits on its element's `during`, where every reporter places it
  local file3 = ws .. '/event-never-sent.test.ts'
  local buf3 = open_file(file3, client_id)
  local never_sent
  assert(vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(buf3)) do
      if d.code == 'event-never-sent' then never_sent = d return true end
    end
    return false
  end, 20), 'no event-never-sent diagnostic within ' .. timeout .. ' ms')
  print_diagnostics(file3, buf3)
  local at = vim.api.nvim_buf_get_lines(buf3, never_sent.lnum, never_sent.lnum + 1, true)[1]:sub(never_sent.col + 1)
  out(('AT event-never-sent %s'):format(at))
  assert(at:find('^during: "writer#2"'), 'event-never-sent does not start at its during')

  -- 4. a passing example: a hover and an inlay hint on the messages entry that met the reviewer's
  -- message (0.7 has no inlay hints of its own, so the request goes out by hand)
  local file4 = passing .. '/workflow.test.ts'
  local buf4 = open_file(file4, client_id)
  local pos4 = position_of(buf4, '(message) => message.reply(', function(l) return l:find('messages:', 1, true) end)
  assert(pos4, 'no messages: { planner: (message) => message.reply( in ' .. file4)
  local text4 = hover_text(client, buf4, pos4, 'the messages entry')
  out(('HOVER %s:%d:%d %s'):format(vim.fn.fnamemodify(file4, ':t'), pos4.line + 1, pos4.character + 1, one_line(text4)))
  assert(text4:find('woken by', 1, true) and text4:find('reviewer', 1, true), 'the hover does not say who woke the planner')
  local hints = client.request_sync('textDocument/inlayHint', {
    textDocument = { uri = vim.uri_from_bufnr(buf4) },
    range = { start = { line = pos4.line, character = 0 }, ['end'] = { line = pos4.line + 1, character = 0 } },
  }, 5000, buf4)
  assert(hints and not hints.err, 'inlayHint failed: ' .. vim.inspect(hints and hints.err))
  for _, h in ipairs(hints.result or {}) do
    local label = h.label
    if type(label) == 'table' then
      local parts = {}
      for _, part in ipairs(label) do parts[#parts + 1] = part.value end
      label = table.concat(parts)
    end
    out(('HINT %s:%d:%d %s'):format(vim.fn.fnamemodify(file4, ':t'), h.position.line + 1, h.position.character + 1, label))
  end
  assert(#(hints.result or {}) > 0, 'no inlay hint on the messages entry line')
end)

if ok then out('RESULT: OK') else out('RESULT: FAIL ' .. tostring(err)) end
if client_id then
  local client = vim.lsp.get_client_by_id(client_id)
  if client then
    client.stop() -- shutdown + exit; give the server a moment to end its workers
    vim.wait(2000, function() return client.is_stopped() end, 20)
  end
end
vim.cmd(ok and 'qall!' or 'cquit 1')

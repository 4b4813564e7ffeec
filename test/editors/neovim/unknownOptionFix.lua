-- The misspelled-option quick fix as a Neovim user meets it: the code action asked for the
-- unknown-option diagnostic exactly as the server published it, and the rename applied. Shared by
-- check.lua (the repository's server) and test/package/editors/neovim.lua (the installed package).
-- Returns a function; call it with { client, buf, published, timeout, out } and it returns the
-- fixed line's number (0-based) and text.
return function(args)
  local client, buf, out = args.client, args.buf, args.out
  local raw
  for _, d in ipairs((args.published[vim.uri_from_bufnr(buf)] or {}).diagnostics or {}) do
    if d.code == 'unknown-option' then raw = d end
  end
  assert(raw, 'unknown-option missing from the raw publishDiagnostics')
  local res = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = raw.range,
    context = { diagnostics = { raw }, only = { 'quickfix' } },
  }, args.timeout, buf)
  assert(res and not res.err, 'codeAction failed: ' .. vim.inspect(res and res.err))
  local rename
  for _, a in ipairs(res.result or {}) do
    out(('ACTION %s (%s%s)'):format(a.title, a.kind or '?', a.isPreferred and ', preferred' or ''))
    if not rename and a.edit and a.title:find('agents', 1, true) then rename = a end
  end
  assert(rename, 'no quick fix renaming the option to agents')
  vim.lsp.util.apply_workspace_edit(rename.edit, client.offset_encoding)
  local line_number = raw.range.start.line
  local line = vim.api.nvim_buf_get_lines(buf, line_number, line_number + 1, true)[1]
  out(('AFTER FIX line %d: %s'):format(line_number + 1, vim.trim(line)))
  return line_number, line
end

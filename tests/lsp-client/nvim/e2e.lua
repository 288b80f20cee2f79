-- The Neovim end-to-end scenario of tests/lsp/nvim.rs (issue 36 item 11):
-- Neovim's own LSP client (0.7 API, which 0.8 and later keep) drives
-- `form-package lsp` on a copy of a package. Written so that Debian
-- stable's Neovim 0.7.2 runs it: no vim.fs, no vim.lsp.start.
--
-- Environment: FP_BIN (the binary), FP_PKG (the package copy), FP_OUT
-- (where the facts go, as JSON). Exits 0 after writing the facts, 1 on a
-- failure (its message on stderr).

local bin, pkg, out = os.getenv('FP_BIN'), os.getenv('FP_PKG'), os.getenv('FP_OUT')
local facts = {}

local function fail(msg)
  io.stderr:write('nvim e2e: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local def = pkg .. '/definition.json'
vim.cmd('edit ' .. vim.fn.fnameescape(def))
local buf = vim.api.nvim_get_current_buf()

-- The documented 0.7 setup (docs/src/lsp.md): the package root is the
-- nearest directory holding package-index.json.
local index = vim.fn.findfile('package-index.json', vim.fn.fnamemodify(def, ':p:h') .. ';')
if index == '' then return fail('no package-index.json above ' .. def) end
local root = vim.fn.fnamemodify(index, ':p:h')
local id = vim.lsp.start_client({ name = 'form_package', cmd = { bin, 'lsp' }, root_dir = root })
if not id then return fail('the client did not start') end
vim.lsp.buf_attach_client(buf, id)
if not vim.wait(60000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end, 20) then
  return fail('the server did not initialize')
end

-- A request the server answers only after verifying every pending change:
-- the diagnostics it published are handled by then.
local function settle()
  local r = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 0, character = 0 } }, 60000)
  if r == nil then fail('no answer to hover') end
  vim.wait(200)
end

local function codes()
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code
    if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
    table.insert(list, { code = code, line = d.lnum, col = d.col })
  end
  table.sort(list, function(a, b)
    if a.line ~= b.line then return a.line < b.line end
    return tostring(a.code) < tostring(b.code)
  end)
  return list
end

local function text() return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') end
local function set_text(t) vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(t, '\n', { plain = true })) end

settle()
facts.opened = codes()

-- An unsaved edit that opens an object: FD213 and the index findings.
local original = text()
local opened = original:gsub('"additionalProperties":false', '"additionalProperties":true', 1)
set_text(opened)
settle()
facts.edited = codes()

-- A local $ref and a hover on it: the target's pointer and schema.
local with_ref = original:gsub('"properties":{"name":{',
  '"$defs":{"n":{"type":"string"}},"properties":{"nick":{"$ref":"#/$defs/n"},"name":{', 1)
set_text(with_ref)
settle()
local row, col
for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local at = line:find('#/$defs/n', 1, true)
  if at then row, col = i - 1, at break end
end
if not row then return fail('the $ref was not written') end
local h = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }, 60000)
for _, r in pairs(h or {}) do
  if r.result and r.result.contents then facts.hover = r.result.contents.value end
end
facts.with_ref = codes()

-- The index code action, applied as Neovim applies a workspace edit,
-- then every buffer saved.
local last = vim.api.nvim_buf_line_count(buf)
local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
  context = { diagnostics = {} },
}, 60000)
for _, r in pairs(actions or {}) do
  for _, a in ipairs(r.result or {}) do
    if a.title and a.title:find('package%-index%.json') then
      facts.action = a.title
      vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
    end
  end
end
vim.cmd('silent wall')
settle()
facts.saved = codes()

local f = io.open(out, 'w')
f:write(vim.fn.json_encode(facts))
f:close()
vim.cmd('qall!')

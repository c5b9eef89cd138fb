// The portal's own stylesheet and its only script: served by the service, no external assets.
export const STYLE_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --accent: #1d4ed8; --danger: #b42318; --ok: #067647; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: #fff; }
a { color: var(--accent); }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header .brand { font-weight: 700; margin-right: auto; color: var(--ink); text-decoration: none; }
header nav { display: flex; gap: 1rem; align-items: center; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
form.stack { display: grid; gap: .75rem; max-width: 26rem; }
label { font-weight: 600; display: block; }
input[type=text], input[type=email], input[type=password], input[type=number], select { width: 100%; padding: .5rem; font: inherit; border: 1px solid #767676; border-radius: 4px; }
.inline { display: inline; }
button { font: inherit; padding: .45rem .9rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
.error { color: var(--danger); font-weight: 600; }
.notice { border: 1px solid var(--ok); color: var(--ok); padding: .75rem; border-radius: 4px; }
.alert { border: 1px solid var(--danger); color: var(--danger); padding: .75rem; border-radius: 4px; }
.secret { display: flex; gap: .5rem; align-items: center; }
.secret input { font-family: ui-monospace, monospace; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.actions { white-space: nowrap; }
td.actions form { display: inline-flex; gap: .25rem; align-items: center; margin: 0 .25rem .25rem 0; }
td.actions select { width: auto; padding: .3rem; }
.muted { color: var(--muted); }
code { font-family: ui-monospace, monospace; background: #f3f3f3; padding: 0 .2rem; }
.chart { width: 100%; height: auto; max-width: 45rem; }
.chart .bar { fill: var(--accent); }
.chart .axis { stroke: var(--muted); }
.chart .limit { stroke: var(--danger); stroke-dasharray: 6 4; stroke-width: 2; }
.chart .tick, .chart .limit-label { font-size: 12px; fill: var(--muted); }
.figures { display: flex; gap: 2rem; flex-wrap: wrap; }
.figures div { min-width: 8rem; }
.figures strong { display: block; font-size: 1.4rem; }
`;

// Copy-to-clipboard, the portal's only script: without it the key stays selectable in its field.
export const COPY_JS = `
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  try { await navigator.clipboard.writeText(field.value); } catch { document.execCommand('copy'); }
  button.textContent = 'Copied';
  const status = document.getElementById(button.dataset.copy + '-status');
  if (status) status.textContent = 'The key was copied to the clipboard.';
});
`;

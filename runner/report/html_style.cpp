#include "report/html_style.h"

namespace agent_run {

// The report's whole stylesheet: system fonts only, colours as variables for light and dark
// (prefers-color-scheme), and the filters as radio buttons with `:checked ~` rules, so they work
// with JavaScript off.
const char* const k_report_css = R"css(
:root{--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--accent:#0969da;
--pass:#1a7f37;--fail:#cf222e;--error:#9a6700;--skip:#818b98;--model:#8250df;--tool:#bf8700;
--add-bg:#dafbe1;--add-fg:#116329;--del-bg:#ffebe9;--del-fg:#82071e;--hunk:#0550ae}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--panel:#151b23;--accent:#4493f8;--pass:#3fb950;--fail:#f85149;--error:#d29922;--skip:#9198a1;
--model:#ab7df8;--tool:#d29922;--add-bg:#12261e;--add-fg:#7ee787;--del-bg:#2d1214;--del-fg:#ffa198;
--hunk:#79c0ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",
"Noto Sans",Helvetica,Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:16px 20px 48px}
h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);
padding-bottom:4px}h3{font-size:15px;margin:16px 0 6px}
a{color:var(--accent)}code,pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;
max-height:420px;white-space:pre;margin:6px 0}
pre.tail{display:flex;flex-direction:column-reverse}
.meta{color:var(--muted);margin:0 0 8px}
.tiles{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0}
.tile{border:1px solid var(--line);border-radius:8px;padding:6px 10px;min-width:92px;background:var(--panel)}
.tile b{display:block;font-size:20px}.tile span{color:var(--muted);font-size:12px}
.tile.passed b{color:var(--pass)}.tile.failed b{color:var(--fail)}.tile.error b{color:var(--error)}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border-bottom:1px solid var(--line);
padding:4px 8px;text-align:right;vertical-align:top}th:first-child,td:first-child{text-align:left}
th{color:var(--muted);font-weight:600}tr.flaky td{background:var(--panel)}tbody.overall th{text-align:left}tbody.overall tr:first-child>*{border-top:2px solid var(--line)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(330px,1fr));gap:12px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:8px;background:var(--panel)}
figcaption{color:var(--muted);font-size:12px;margin-bottom:4px}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .value{fill:var(--muted)}
svg .track{fill:var(--line)}svg .bar{fill:var(--accent)}svg .pass{fill:var(--pass)}svg .fail{fill:var(--fail)}
svg .error{fill:var(--error)}svg .skip{fill:var(--skip)}
.outcome-passed{color:var(--pass)}.outcome-failed{color:var(--fail)}.outcome-error{color:var(--error)}
.outcome-skipped{color:var(--skip)}
ul.failures{padding-left:18px}ul.failures li{margin:2px 0}
.filter{position:absolute;opacity:0;pointer-events:none}
.filters{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0 12px;align-items:center}
.filters span{color:var(--muted);margin-right:4px}
.filters label{border:1px solid var(--line);border-radius:999px;padding:2px 10px;cursor:pointer;
background:var(--panel)}
.filter:focus-visible+*{outline:2px solid var(--accent)}
details.attempt{border:1px solid var(--line);border-radius:8px;margin:6px 0;background:var(--bg);
content-visibility:auto;contain-intrinsic-size:auto 34px}
details.attempt>summary{cursor:pointer;padding:6px 10px;list-style-position:inside}
details.attempt[open]>summary{border-bottom:1px solid var(--line);background:var(--panel)}
details.attempt>div{padding:6px 12px 10px}
summary .figures{color:var(--muted)}
details.attempt:has(>div:target){outline:2px solid var(--accent)}
ol.timeline{list-style:none;padding:0;margin:6px 0}
ol.timeline>li{border-left:3px solid var(--line);padding:2px 0 6px 10px;margin-left:4px}
.turn{font-weight:600;margin-right:6px}
.time{display:inline-flex;width:160px;height:8px;border-radius:4px;overflow:hidden;background:var(--line);
vertical-align:middle;margin:0 8px}
.time .m{background:var(--model)}.time .t{background:var(--tool)}
.legend .m,.legend .t{display:inline-block;width:10px;height:10px;border-radius:2px;margin:0 4px 0 10px}
.legend .m{background:var(--model)}.legend .t{background:var(--tool)}
ul.calls{margin:2px 0;padding-left:18px}ul.calls li{margin:1px 0}
.denied{color:var(--fail)}.problem{color:var(--fail)}.said{color:var(--muted);font-style:italic}
li.check-passed::marker{color:var(--pass)}li.check-failed::marker{color:var(--fail)}
blockquote{margin:6px 0;padding:4px 12px;border-left:3px solid var(--line);white-space:pre-wrap}
pre.diff .a{background:var(--add-bg);color:var(--add-fg);display:inline-block;min-width:100%}
pre.diff .d{background:var(--del-bg);color:var(--del-fg);display:inline-block;min-width:100%}
pre.diff .h{color:var(--hunk)}pre.diff .f{font-weight:700}
.note{color:var(--muted);font-size:12px}
)css";

}  // namespace agent_run

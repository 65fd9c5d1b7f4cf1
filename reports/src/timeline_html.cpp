// The cycle-model timeline as one self-contained page (evg/reports/timeline.hpp): the data inline, drawn on a
// canvas by the page's own script; no network, no trace viewer.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "evg/reports/report.hpp"
#include "evg/reports/timeline.hpp"
#include "timeline_common.hpp"

namespace evg::reports {

namespace h = evg::hw;
namespace t = evg::hw::timing;

namespace {

constexpr std::string_view kHead = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>evgcheck timeline</title>
<style>
body{font-family:system-ui,sans-serif;margin:12px;color:#222;background:#fafafa}
h1{font-size:18px;margin:0 0 6px}
pre{background:#fff;border:1px solid #ddd;padding:8px;font-size:12px;overflow:auto;max-height:260px}
#bar{margin:6px 0;font-size:13px}
#bar button{margin-right:6px}
#wrap{position:relative;border:1px solid #ccc;background:#fff}
canvas{display:block}
#tip{position:absolute;pointer-events:none;background:#222;color:#fff;font-size:12px;padding:4px 6px;
border-radius:3px;white-space:pre;display:none;z-index:2}
.legend span{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;vertical-align:middle}
.note{color:#a33}
</style></head><body>
)HTML";

constexpr std::string_view kScript = R"JS(<script>
(function(){
const D=JSON.parse(document.getElementById('data').textContent);
const COL={"S (scalar unit)":"#9e9e9e",MTE2:"#4e79a7",V:"#59a14f",MTE3:"#f28e2b",MTE1:"#76b7b2",M:"#b07aa1",FIX:"#edc948"};
const ROW=18,HEAD=20,UBH=34,LEFT=130,AXIS=22;
const rows=[];let y=AXIS;
D.cores.forEach((c,ci)=>{rows.push({kind:'head',y:y,core:ci});y+=HEAD;
 c.tracks.forEach(tr=>{rows.push({kind:'track',y:y,core:ci,track:tr});c['y'+tr]=y;y+=ROW;});
 if(D.ub[ci]&&D.ub[ci].length){rows.push({kind:'ub',y:y,core:ci});c.uby=y;y+=UBH;}});
const H=y+6;
const cv=document.getElementById('cv'),ctx=cv.getContext('2d'),tip=document.getElementById('tip');
let W=0,t0=0,t1=Math.max(1,D.total);
function resize(){W=Math.max(600,document.getElementById('wrap').clientWidth);cv.width=W;cv.height=H;draw();}
function X(t){return LEFT+(t-t0)/(t1-t0)*(W-LEFT-10);}
function T(x){return t0+(x-LEFT)/(W-LEFT-10)*(t1-t0);}
function ylane(s){return D.cores[s[0]]['y'+s[1]];}
function draw(){
 ctx.clearRect(0,0,W,H);ctx.font='11px sans-serif';
 // axis
 ctx.fillStyle='#444';const span=t1-t0;let step=Math.pow(10,Math.floor(Math.log10(span/8)));
 if(span/step>16)step*=5;else if(span/step>8)step*=2;
 for(let t=Math.ceil(t0/step)*step;t<=t1;t+=step){const x=X(t);ctx.fillRect(x,AXIS-6,1,6);
  ctx.fillText(String(t),x+2,AXIS-8);ctx.fillStyle='#eee';ctx.fillRect(x,AXIS,1,H-AXIS);ctx.fillStyle='#444';}
 ctx.fillText('cycles',4,AXIS-8);
 rows.forEach(r=>{
  if(r.kind==='head'){ctx.fillStyle='#e8e8e8';ctx.fillRect(0,r.y,W,HEAD);ctx.fillStyle='#000';
   ctx.font='bold 12px sans-serif';ctx.fillText(D.cores[r.core].name,4,r.y+14);ctx.font='11px sans-serif';}
  else if(r.kind==='track'){ctx.fillStyle='#333';ctx.fillText(D.tracks[r.track],14,r.y+13);}
  else{ctx.fillStyle='#333';ctx.fillText('UB in use',14,r.y+14);}
 });
 // slices
 let lastx={};
 for(let i=0;i<D.slices.length;i++){const s=D.slices[i];const a=s[2],b=s[2]+s[3];if(b<t0||a>t1)continue;
  const x0=X(a),x1=Math.max(X(b),x0+1);const yy=ylane(s);const key=s[0]+':'+s[1];
  if(lastx[key]!==undefined&&x1<=lastx[key]+0.3&&s[4]===0)continue;lastx[key]=x1;
  ctx.fillStyle=COL[D.tracks[s[1]]]||'#888';ctx.fillRect(x0,yy+2,x1-x0,ROW-4);
  if(s[4]>0){const xs=Math.max(X(a+s[4]),x0+1);ctx.fillStyle='#d62728';ctx.fillRect(x0,yy+2,xs-x0,ROW-4);}
  if(x1-x0>40){ctx.fillStyle='#fff';ctx.save();ctx.beginPath();ctx.rect(x0,yy,x1-x0,ROW);ctx.clip();
   ctx.fillText(D.ops[s[5]],x0+2,yy+13);ctx.restore();}}
 // flow arrows (when few enough are visible to read)
 const vis=D.flows.filter(f=>{const a=D.slices[f[0]],b=D.slices[f[1]];return !(a[2]>t1||b[2]+b[3]<t0);});
 if(vis.length<=3000){ctx.strokeStyle='rgba(0,0,0,0.45)';ctx.lineWidth=1;
  vis.forEach(f=>{const a=D.slices[f[0]],b=D.slices[f[1]];const xa=X(a[2]+a[3]),ya=ylane(a)+ROW/2;
   const xb=X(b[2]+b[4]),yb=ylane(b)+ROW/2;ctx.strokeStyle=f[2]?'rgba(160,0,160,0.6)':'rgba(0,0,0,0.45)';
   ctx.beginPath();ctx.moveTo(xa,ya);ctx.lineTo(xb,yb);ctx.stroke();
   const ang=Math.atan2(yb-ya,xb-xa);ctx.beginPath();ctx.moveTo(xb,yb);
   ctx.lineTo(xb-6*Math.cos(ang-0.4),yb-6*Math.sin(ang-0.4));ctx.lineTo(xb-6*Math.cos(ang+0.4),yb-6*Math.sin(ang+0.4));
   ctx.closePath();ctx.fill();});}
 // UB counters
 D.cores.forEach((c,ci)=>{const u=D.ub[ci];if(!u||!u.length)return;const max=Math.max(1,D.ubmax);
  ctx.fillStyle='rgba(78,121,167,0.35)';ctx.strokeStyle='#4e79a7';ctx.beginPath();ctx.moveTo(X(Math.max(t0,0)),c.uby+UBH-2);
  for(let k=0;k<u.length;k++){const tt=u[k][0],next=k+1<u.length?u[k+1][0]:D.total;if(next<t0||tt>t1)continue;
   const h=(UBH-6)*u[k][1]/max;ctx.lineTo(X(Math.max(tt,t0)),c.uby+UBH-2-h);ctx.lineTo(X(Math.min(next,t1)),c.uby+UBH-2-h);}
  ctx.lineTo(X(Math.min(t1,D.total)),c.uby+UBH-2);ctx.closePath();ctx.fill();ctx.stroke();});
}
function hit(mx,my){for(let i=0;i<D.slices.length;i++){const s=D.slices[i];const yy=ylane(s);
 if(my<yy||my>yy+ROW)continue;const x0=X(s[2]),x1=Math.max(X(s[2]+s[3]),x0+2);if(mx>=x0&&mx<=x1)return s;}return null;}
cv.addEventListener('wheel',e=>{e.preventDefault();const m=T(e.offsetX);const f=e.deltaY>0?1.25:0.8;
 t0=m-(m-t0)*f;t1=m+(t1-m)*f;if(t1-t0<10){t1=t0+10;}draw();},{passive:false});
let drag=null;cv.addEventListener('mousedown',e=>{drag={x:e.offsetX,a:t0,b:t1};});
window.addEventListener('mouseup',()=>{drag=null;});
cv.addEventListener('mousemove',e=>{if(drag){const dt=(e.offsetX-drag.x)/(W-LEFT-10)*(drag.b-drag.a);
 t0=drag.a-dt;t1=drag.b-dt;draw();return;}const s=hit(e.offsetX,e.offsetY);
 if(!s){tip.style.display='none';return;}
 tip.textContent=D.ops[s[5]]+'\n'+D.cores[s[0]].name+' '+D.tracks[s[1]]+'  cycles '+s[2]+' .. '+(s[2]+s[3])+
  (s[4]?'\nstall '+s[4]+(s[8]?' waiting for '+s[8]:''):'')+(s[6]>=0?'\nnode '+D.nodes[s[6]]:'')+
  (s[7]?'\nbytes '+s[7]:'')+(s[9]?'\n'+s[9]:'');
 tip.style.left=(e.offsetX+12)+'px';tip.style.top=(e.offsetY+12)+'px';tip.style.display='block';});
cv.addEventListener('mouseleave',()=>{tip.style.display='none';});
document.getElementById('reset').onclick=()=>{t0=0;t1=Math.max(1,D.total);draw();};
window.addEventListener('resize',resize);resize();
})();
</script>
)JS";

// The end of the page's time window: the whole run when its timed instructions fit `max_slices`, else the
// largest T such that at most max_slices of them start before T.
uint64_t window_end(const t::Timeline& tl, size_t max_slices, size_t& timed) {
    std::vector<uint64_t> starts;
    for (const t::Slice& s : tl.slices)
        if (s.timed) starts.push_back(s.start);
    timed = starts.size();
    if (starts.size() <= max_slices) return UINT64_MAX;
    // The (max_slices + 1)-th earliest start: the instructions before it are at most max_slices.
    std::nth_element(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(max_slices), starts.end());
    return starts[max_slices];
}

}  // namespace

void write_timeline_html(std::ostream& out, const TimelineInput& in, size_t max_slices) {
    using detail::json_string;
    const t::Timeline& tl = in.timeline;
    const size_t n = std::min(in.trace.size(), tl.slices.size());
    size_t timed = 0;
    const uint64_t cut = window_end(tl, max_slices, timed);
    const bool windowed = cut != UINT64_MAX;
    // Cores and tracks in use, in the JSON's order.
    std::vector<std::vector<int>> tracks;
    std::vector<uint32_t> index(in.trace.size() + 1, UINT32_MAX);  // entry id -> slice index in the page
    std::vector<std::string> ops, nodes;
    std::unordered_map<uint32_t, size_t> op_index;
    std::string slices;
    uint64_t shown_end = 0;
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        t::Slice s = tl.slices[i];
        if (!s.timed || s.start >= cut) continue;
        s.end = std::min(s.end, cut);  // clipped at the window's end
        s.stall = std::min(s.stall, s.end - s.start);
        const h::TraceEntry& e = in.trace[i];
        const int track = detail::track_of(e);
        if (tracks.size() <= e.core) tracks.resize(static_cast<size_t>(e.core) + 1);
        auto& tr = tracks[e.core];
        if (std::find(tr.begin(), tr.end(), track) == tr.end()) tr.push_back(track);
        auto [it, fresh] = op_index.try_emplace(e.op_site, ops.size());
        if (fresh) ops.push_back(json_string(e.op()));
        const h::Site site = e.site();
        const std::string waited = s.stall ? json_string(detail::waited_for(in, s)) : "0";
        const std::string where = site.file ? json_string(fmt::format("{}:{}", site.file, site.line)) : "0";
        slices += fmt::format("{}[{},{},{},{},{},{},{},{},{},{}]", count ? "," : "", e.core, track, s.start,
                              s.end - s.start, s.stall, it->second, e.node, s.bytes, waited, where);
        index[e.id] = static_cast<uint32_t>(count++);
        shown_end = std::max(shown_end, s.end);
    }
    if (windowed) shown_end = cut;
    for (const std::string& l : in.node_labels) nodes.push_back(json_string(l));
    std::string flows;
    for (const t::Flow& f : tl.flows) {
        if (index[f.set] == UINT32_MAX || index[f.wait] == UINT32_MAX) continue;
        flows += fmt::format("{}[{},{},{}]", flows.empty() ? "" : ",", index[f.set], index[f.wait],
                             f.cross_core ? 1 : 0);
    }
    std::string ub;
    uint64_t ub_max = 0;
    for (size_t c = 0; c < tracks.size() || c < tl.ub.size(); ++c) {
        std::string pts;
        if (c < tl.ub.size())
            for (const t::UbSample& u : tl.ub[c]) {
                if (u.time > shown_end && !pts.empty()) break;
                pts += fmt::format("{}[{},{}]", pts.empty() ? "" : ",", u.time, u.bytes);
                ub_max = std::max(ub_max, u.bytes);
            }
        ub += fmt::format("{}[{}]", c ? "," : "", pts);
    }
    std::string cores;
    for (size_t c = 0; c < tracks.size(); ++c) {
        std::vector<int> tr = tracks[c];
        std::sort(tr.begin(), tr.end(),
                  [](int a, int b) { return detail::track_order(a) < detail::track_order(b); });
        std::string list;
        for (int x : tr) list += fmt::format("{}{}", list.empty() ? "" : ",", x);
        cores += fmt::format("{}{{\"name\":{},\"tracks\":[{}]}}", c ? "," : "",
                             json_string(tl.launch.core_name(static_cast<int>(c))), list);
    }
    std::string track_names;
    for (int track = 0; track <= h::kPipeSlots; ++track)
        track_names += fmt::format("{}{}", track ? "," : "", json_string(detail::track_name(track)));
    const uint64_t total = windowed ? cut : tl.summary.total;

    out << kHead;
    out << "<h1>evgcheck timeline: " << html_escape(in.title) << "</h1>\n";
    out << "<pre>" << html_escape(in.summary) << "</pre>\n";
    if (!in.marks.empty()) {
        out << "<p class=\"note\">Findings at instructions of this launch:</p><ul>\n";
        for (const auto& [id, text] : in.marks) {
            if (id == 0 || id > in.trace.size()) continue;
            const h::TraceEntry& e = in.trace[id - 1];
            const t::Slice& s = tl.slices[id - 1];
            out << "<li>#" << id << " " << html_escape(e.op()) << " of "
                << html_escape(tl.launch.core_name(static_cast<int>(e.core)))
                << (s.timed ? fmt::format(" at cycle {}", s.start) : std::string()) << ": "
                << html_escape(text) << "</li>\n";
        }
        out << "</ul>\n";
    }
    if (windowed)
        out << "<p class=\"note\" id=\"window\">This page shows cycles 0 to " << cut << " of the run's "
            << tl.summary.total << ": every instruction of every core that starts before cycle " << cut
            << " (" << count << " of " << timed
            << " instructions; a slice still running at the window's end is cut there). The JSON timeline "
               "(--timeline FILE.json) has the whole run.</p>\n";
    out << "<div id=\"bar\"><button id=\"reset\">whole run</button>wheel: zoom, drag: pan, hover: details. "
           "Red: cycles a wait or barrier held its pipe. Lines: flag edges from a set to the wait it "
           "released "
           "(purple: cross-core).<span class=\"legend\">";
    for (const auto& [name, color] : {std::pair{"MTE2", "#4e79a7"},
                                      {"V", "#59a14f"},
                                      {"MTE3", "#f28e2b"},
                                      {"S", "#9e9e9e"},
                                      {"MTE1", "#76b7b2"},
                                      {"M", "#b07aa1"},
                                      {"FIX", "#edc948"}})
        out << "<span style=\"background:" << color << "\"></span>" << name;
    out << "</span></div>\n<div id=\"wrap\"><canvas id=\"cv\"></canvas><div id=\"tip\"></div></div>\n";
    std::string data =
        fmt::format("\"total\":{},\"ubmax\":{},\"tracks\":[{}],\"cores\":[{}],\"ops\":[{}],\"nodes\":[{}],",
                    total, ub_max, track_names, cores, fmt::join(ops, ","), fmt::join(nodes, ","));
    data += "\"slices\":[" + slices + "],\"flows\":[" + flows + "],\"ub\":[" + ub + "]";
    // Inside <script>, "</" would end the element: JSON allows "<\/" for it.
    out << "<script type=\"application/json\" id=\"data\">{";
    for (size_t at = 0; at < data.size();) {
        const size_t lt = data.find("</", at);
        out << std::string_view(data).substr(at, lt == std::string::npos ? std::string::npos : lt - at);
        if (lt == std::string::npos) break;
        out << "<\\/";
        at = lt + 2;
    }
    out << "}</script>\n";
    out << kScript << "</body></html>\n";
}

}  // namespace evg::reports

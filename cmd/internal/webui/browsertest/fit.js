// tokenmcFit(expand) returns the places where the page hides or clips
// data (see Fit in fit.go). With expand it first clicks every "+N more"
// button (class "more") and then reports the list items still hidden.
function tokenmcFit(expand) {
  const out = [];
  const tol = 1.5;
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += "#" + e.id;
    else if (typeof e.className === "string" && e.className) s += "." + e.className.trim().split(/\s+/).join(".");
    const p = e.parentElement;
    if (p && p.id) s = "#" + p.id + " > " + s;
    return s;
  };
  const short = (s) => { s = s.replace(/\s+/g, " ").trim(); return s.length > 60 ? s.slice(0, 57) + "..." : s; };
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  if (expand) {
    for (let round = 0; round < 5; round++) {
      const more = [...document.querySelectorAll(".more")].filter(shown);
      if (more.length === 0) break;
      more.forEach((m) => m.click());
    }
  }
  // A: boxes that clip or scroll with content beyond their size (the
  // page itself may scroll)
  for (const e of document.querySelectorAll("body *, svg")) {
    if (e instanceof SVGElement || !shown(e)) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowY !== "visible" && e.scrollHeight > e.clientHeight + tol) {
      out.push(`${name(e)} hides ${e.scrollHeight - e.clientHeight} px of its ${e.scrollHeight} px behind overflow-y: ${cs.overflowY}`);
    }
    if (cs.overflowX !== "visible" && e.scrollWidth > e.clientWidth + tol) {
      out.push(`${name(e)} hides ${e.scrollWidth - e.clientWidth} px of its ${e.scrollWidth} px wide content behind overflow-x: ${cs.overflowX}`);
    }
  }
  // B: text outside its element's box, or outside a box that clips it
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  const skip = new Set(["SCRIPT", "STYLE", "TITLE", "OPTION", "SELECT", "TEXTAREA", "NOSCRIPT"]);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !n.textContent.trim() || skip.has(p.tagName) || p.closest("svg") || !shown(p)) continue;
    const r = document.createRange();
    r.selectNodeContents(n);
    const tr = r.getBoundingClientRect();
    if (tr.width === 0 && tr.height === 0) continue;
    // the element's own box: the nearest block-level ancestor (inline
    // boxes wrap their text by definition)
    let box = p;
    while (box && getComputedStyle(box).display.startsWith("inline") && !/^(BUTTON|INPUT)$/.test(box.tagName) && !box.matches(".msg")) box = box.parentElement;
    if (box) {
      const br = box.getBoundingClientRect();
      if (tr.right > br.right + tol || tr.left < br.left - tol || tr.bottom > br.bottom + tol) {
        out.push(`text "${short(n.textContent)}" runs out of its box ${name(box)} (text ${Math.round(tr.left)}..${Math.round(tr.right)} x ${Math.round(tr.top)}..${Math.round(tr.bottom)}, box ${Math.round(br.left)}..${Math.round(br.right)} x ${Math.round(br.top)}..${Math.round(br.bottom)})`);
        continue;
      }
    }
  }
  // C: SVG text outside its picture, or over another text
  for (const svg of document.querySelectorAll("svg")) {
    if (svg.parentElement && svg.parentElement.closest("svg")) continue;
    if (!shown(svg)) continue;
    const sr = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim() && shown(t));
    const rects = texts.map((t) => t.getBoundingClientRect());
    texts.forEach((t, k) => {
      const r = rects[k];
      if (r.right > sr.right + tol || r.left < sr.left - tol || r.bottom > sr.bottom + tol || r.top < sr.top - tol) {
        out.push(`SVG text "${short(t.textContent)}" at ${Math.round(r.left - sr.left)}..${Math.round(r.right - sr.left)} x ${Math.round(r.top - sr.top)}..${Math.round(r.bottom - sr.top)} leaves its ${Math.round(sr.width)} x ${Math.round(sr.height)} picture`);
      }
    });
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = rects[i], b = rects[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) {
          out.push(`SVG texts overlap: "${short(texts[i].textContent)}" and "${short(texts[j].textContent)}" (${Math.round(w)} x ${Math.round(h)} px)`);
        }
      }
    }
  }
  // D: list items not displayed without a "+N more" in their list
  const item = "li, tr, .msg, .inbox, .action, .group";
  for (const e of document.querySelectorAll(item)) {
    if (shown(e)) continue;
    // the outermost box that is not displayed: a whole section of the
    // page that is closed (not a list's item) hides no list data
    let top = e;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (!shown(a)) top = a;
    if (top !== e && !top.matches(item)) continue;
    const d = e.closest("details:not([open])");
    if (d && /\d/.test((d.querySelector("summary") || {}).textContent || "")) continue; // a folded section that counts what it holds
    let list = e.parentElement, more = null;
    for (let k = 0; list && k < 4 && !more; k++, list = list.parentElement) more = list.querySelector(".more");
    if (expand || !more) {
      out.push(`${name(e)} "${short(e.textContent)}" is not displayed` + (more ? " after its +N more was clicked" : " and no +N more says so"));
    }
  }
  return out;
}

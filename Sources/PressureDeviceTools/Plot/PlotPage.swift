import PressureCore

/// A ``ForcePlot`` as a web page (`pressurectl plot -o FILE.html`) that needs nothing outside itself:
/// the same SVG inline, each contact's times, forces, gestures and outcome as JSON, and a script of its
/// own that names, for the curve nearest the pointer, its contact, its force there and its gestures. A
/// link to `FILE.html#contact=N` opens with the pointer put on contact N's peak (an event like any
/// other, so a test in a headless browser sees what hovering shows).
public enum PlotPage {
    /// The page, as one string.
    public static func html(_ plot: ForcePlot) -> String {
        var svg = plot.svg()
        // Inline, the SVG needs no XML declaration (and HTML does not allow one there).
        if svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") { svg = String(svg[svg.index(after: end)...]) }
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<title>\(ForcePlot.escape(plot.title))</title>\n<style>\(style)</style>\n</head>\n<body>\n"
        s += "<div id=\"plot\">\n" + svg + "</div>\n"
        s += "<p id=\"tip\" role=\"status\">Point at a curve: its contact, force and gestures.</p>\n"
        s += "<script type=\"application/json\" id=\"plot-data\">" + data(plot) + "</script>\n"
        s += "<script>\n" + script + "</script>\n</body>\n</html>\n"
        return s
    }

    /// `{"contacts":[{"contact":3,"outcome":"peeked","gestures":["peek","dismiss"],"times":[…],"forces":[…]}]}`,
    /// times in seconds from the plot's start, in the order of the SVG's points.
    static func data(_ plot: ForcePlot) -> String {
        let start = plot.layout.start
        var gestures: [UInt64: [GestureKind]] = [:]
        for m in plot.markers { gestures[m.contact, default: []].append(m.kind) }
        var s = #"{"contacts":["#
        for (i, (series, outcome)) in zip(plot.series, plot.outcomes).enumerated() {
            if i > 0 { s += "," }
            let kinds = (gestures[series.contact] ?? []).map { #""\#($0.rawValue)""# }.joined(separator: ",")
            let times = series.points.map { DecimalText.fixed(Double(($0.time - start).microseconds) / 1e6, 3) }
            let forces = series.points.map { DecimalText.fixed($0.force, 3) }
            s += #"{"contact":\#(series.contact),"outcome":"\#(outcome.rawValue)","gestures":[\#(kinds)],"#
            s += #""times":[\#(times.joined(separator: ","))],"forces":[\#(forces.joined(separator: ","))]}"#
        }
        return s + "]}"
    }

    static let style = """
        body{font-family:sans-serif;margin:16px;color:#222}#plot svg{max-width:100%;height:auto}\
        #tip{min-height:1.4em;font-size:14px}polyline.contact.hovered{stroke-width:4}
        """

    /// Finds the curve nearest the pointer (within 12 SVG units) by its segments, and names it.
    static let script = """
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("plot-data").textContent);
          var svg = document.querySelector("#plot svg");
          var tip = document.getElementById("tip");
          var resting = tip.textContent;
          var info = {};
          data.contacts.forEach(function (c) { info[String(c.contact)] = c; });
          var curves = Array.prototype.map.call(svg.querySelectorAll("polyline.contact"), function (el) {
            var points = el.getAttribute("points").trim().split(/\\s+/).map(function (p) {
              var xy = p.split(",");
              return [Number(xy[0]), Number(xy[1])];
            });
            return { el: el, c: info[el.getAttribute("data-contact")], points: points };
          });
          var shown = null;
          function describe(c, i) {
            i = Math.min(i, c.forces.length - 1);
            var gestures = c.gestures.length ? c.gestures.join(", ") : "no gesture";
            return "contact " + c.contact + ": force " + c.forces[i].toFixed(2) + " at " + c.times[i].toFixed(3) +
              " s; " + gestures + " (" + c.outcome + ")";
          }
          function show(curve, i) {
            if (shown) { shown.el.classList.remove("hovered"); }
            shown = curve;
            if (!curve) { tip.textContent = resting; return; }
            curve.el.classList.add("hovered");
            tip.textContent = describe(curve.c, i);
          }
          function nearest(x, y) {
            var best = null, bestIndex = 0, bestDistance = 12 * 12;
            curves.forEach(function (curve) {
              var p = curve.points;
              for (var k = 0; k < p.length; k++) {
                var a = p[k], b = p[Math.min(k + 1, p.length - 1)];
                var dx = b[0] - a[0], dy = b[1] - a[1], len = dx * dx + dy * dy;
                var t = len > 0 ? Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / len)) : 0;
                var ex = a[0] + t * dx - x, ey = a[1] + t * dy - y, d = ex * ex + ey * ey;
                if (d < bestDistance) { best = curve; bestDistance = d; bestIndex = t < 0.5 ? k : k + 1; }
              }
            });
            return { curve: best, index: bestIndex };
          }
          svg.addEventListener("mousemove", function (e) {
            var m = svg.getScreenCTM();
            if (!m) { return; }
            var pt = svg.createSVGPoint();
            pt.x = e.clientX;
            pt.y = e.clientY;
            var at = pt.matrixTransform(m.inverse());
            var found = nearest(at.x, at.y);
            show(found.curve, found.index);
          });
          svg.addEventListener("mouseleave", function () { show(null, 0); });
          var linked = /^#contact=(\\d+)$/.exec(location.hash);
          if (linked) {
            var curve = curves.filter(function (c) { return c.c && String(c.c.contact) === linked[1]; })[0];
            var m = svg.getScreenCTM();
            if (curve && m) {
              var peak = curve.points[curve.c.forces.indexOf(Math.max.apply(null, curve.c.forces))];
              var pt = svg.createSVGPoint();
              pt.x = peak[0];
              pt.y = peak[1];
              var client = pt.matrixTransform(m);
              svg.dispatchEvent(new MouseEvent("mousemove", { clientX: client.x, clientY: client.y, bubbles: true }));
            }
          }
        })();

        """
}

import PressureCore

extension ForcePlot {
    /// The plot as a standalone SVG document.
    ///
    /// Elements carry classes and `data-` attributes so scripts (and the tests) can find them:
    /// `polyline.contact[data-contact]` per contact (with `data-outcome` where coloured by outcome),
    /// `line.threshold[data-threshold=peek|pop|maximum]` per threshold and span of time it stood for
    /// (`data-span`, from 0), `line.threshold-step` where it stepped from one span to the next,
    /// `g.gesture[data-kind][data-contact][data-time]` per gesture, `g.outcome[data-outcome][data-count]`
    /// per outcome in the legend, `text.subtitle` and `g.learning[data-until]` where set.
    public func svg() -> String {
        let l = layout
        var s = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        s += #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(n(Layout.width))" height="\#(n(Layout.height))""#
        s += #" viewBox="0 0 \#(n(Layout.width)) \#(n(Layout.height))" font-family="sans-serif" font-size="12">"# + "\n"
        s += "<title>\(Self.escape(title + (subtitle.map { " — " + $0 } ?? "")))</title>\n"
        s += #"<rect width="100%" height="100%" fill="white"/>"# + "\n"
        s += #"<text class="title" x="\#(n(Layout.left))" y="28" font-size="16">\#(Self.escape(title))</text>"# + "\n"
        if let subtitle {
            s += #"<text class="subtitle" x="\#(n(Layout.left))" y="43" fill="rgb(68,68,68)">\#(Self.escape(subtitle))</text>"# + "\n"
        }
        if let learning { s += shade(learning, l) }
        s += axes(l)
        s += thresholds(l)
        if let learning { s += shadeCaption(learning, l) }
        var colours: [UInt64: String] = [:]
        if coloursByOutcome {
            // Ordinary contacts first, so the gestures are drawn over them.
            let outcomes = self.outcomes
            for o in ContactOutcome.allCases {
                for (series, outcome) in zip(series, outcomes) where outcome == o {
                    colours[series.contact] = o.colour
                    s += polyline(series, colour: o.colour, outcome: o, l)
                }
            }
        } else {
            for (i, series) in self.series.enumerated() {
                colours[series.contact] = Self.colour(i)
                s += polyline(series, colour: Self.colour(i), l)
            }
        }
        var labels = LabelPlacer(markers: markers.map { (l.x($0.time), l.y($0.force), $0.contact) })
        for m in markers { s += marker(m, colour: colours[m.contact] ?? "rgb(51,51,51)", l, labels: &labels) }
        var counts: [GestureKind: Int] = [:]
        for m in markers { counts[m.kind, default: 0] += 1 }
        // Counted wherever the labels do not tell them all.
        let counted = coloursByOutcome || labels.dropped > 0
        s += PlotLegend(plot: self, layout: l, gestureCounts: counted ? counts : nil).svg()
        return s + "</svg>\n"
    }

    // MARK: Parts

    func axes(_ l: Layout) -> String {
        let x0 = Layout.left, x1 = Layout.left + l.plotWidth
        let y0 = Layout.top + l.plotHeight, y1 = Layout.top
        var s = #"<g class="grid" stroke="rgb(228,228,228)" stroke-width="1">"# + "\n"
        var labels = ""
        var f = 0.0
        while f <= l.yMaximum + l.yStep / 2 {
            let y = l.y(f)
            s += #"<line x1="\#(n(x0))" y1="\#(n(y))" x2="\#(n(x1))" y2="\#(n(y))"/>"# + "\n"
            labels += #"<text x="\#(n(x0 - 6))" y="\#(n(y + 4))" text-anchor="end">\#(Self.tick(f, l.yStep))</text>"# + "\n"
            f += l.yStep
        }
        var t = 0.0
        while t <= l.duration + l.xStep / 1000 {
            let x = l.x(seconds: t)
            s += #"<line x1="\#(n(x))" y1="\#(n(y1))" x2="\#(n(x))" y2="\#(n(y0))"/>"# + "\n"
            labels += #"<text x="\#(n(x))" y="\#(n(y0 + 16))" text-anchor="middle">\#(Self.tick(t, l.xStep))</text>"# + "\n"
            t += l.xStep
        }
        s += "</g>\n"
        s += #"<g class="axes" fill="rgb(51,51,51)">"# + "\n" + labels
        s += #"<path d="M\#(n(x0)) \#(n(y1)) V\#(n(y0)) H\#(n(x1))" fill="none" stroke="rgb(51,51,51)"/>"# + "\n"
        s += #"<text x="\#(n(x0 + l.plotWidth / 2))" y="\#(n(y0 + 38))" text-anchor="middle">"#
        s += "seconds (0 is \(Self.escape(l.start.description)) on the capture's clock)</text>\n"
        s += #"<text transform="translate(18 \#(n(y1 + l.plotHeight / 2))) rotate(-90)" text-anchor="middle">"#
        s += "force (1.0 = an average touch)</text>\n</g>\n"
        return s
    }

    /// Light grey behind the span where a fresh device would still be learning, so its absence of
    /// gestures there is read as what a new daemon would do, not as what the panel does.
    func shade(_ shade: LearningShade, _ l: Layout) -> String {
        var s = #"<g class="learning" data-until="\#(shade.until.map { Self.escape($0.description) } ?? "end")">"#
        s += #"<rect x="\#(n(Layout.left))" y="\#(n(Layout.top))" width="\#(n(shadeEnd(shade, l) - Layout.left))""#
        return s + #" height="\#(n(l.plotHeight))" fill="rgb(238,238,238)"/></g>"# + "\n"
    }

    /// The shade's caption, inside it where it fits (the legend names the shade either way), drawn over
    /// the thresholds with a halo of the shade's grey so a line crossing it leaves it legible.
    func shadeCaption(_ shade: LearningShade, _ l: Layout) -> String {
        let caption = LabelPlacer.box(shade.caption, x: Layout.left + 6, baseline: Layout.top + 14)
        guard caption.x1 <= shadeEnd(shade, l) else { return "" }
        var s = #"<text class="learning-caption" x="\#(n(Layout.left + 6))" y="\#(n(Layout.top + 14))" font-size="11""#
        s += #" fill="rgb(102,102,102)" stroke="rgb(238,238,238)" stroke-width="4" paint-order="stroke">"#
        return s + Self.escape(shade.caption) + "</text>\n"
    }

    func shadeEnd(_ shade: LearningShade, _ l: Layout) -> Double {
        let right = Layout.left + l.plotWidth
        return shade.until.map { min(max(l.x($0), Layout.left), right) } ?? right
    }

    func thresholds(_ l: Layout) -> String {
        var s = ""
        let right = Layout.left + l.plotWidth
        for (i, span) in spans.enumerated() {
            let lines = Self.lines(span)
            let x1 = span.start.map { min(max(l.x($0), Layout.left), right) } ?? Layout.left
            let next = i + 1 < spans.count ? spans[i + 1].start : nil
            let x2 = next.map { min(max(l.x($0), Layout.left), right) } ?? right
            let last = i == spans.count - 1
            let following = last ? [] : Self.lines(spans[i + 1])
            for (name, force, colour, dash) in lines {
                let y = l.y(force)
                s += #"<line class="threshold" data-threshold="\#(name)" data-span="\#(i)""#
                s += #" data-force="\#(DecimalText.fixed(force, 4))""#
                s += #" x1="\#(n(x1))" y1="\#(n(y))" x2="\#(n(x2))" y2="\#(n(y))""#
                s += #" stroke="\#(colour)" stroke-width="1.5" stroke-dasharray="\#(dash)"/>"# + "\n"
                // A step where the threshold moved to the next span's (not where it began or ended).
                if let next = following.first(where: { $0.0 == name }), next.1 != force {
                    s += #"<line class="threshold-step" data-threshold="\#(name)" data-span="\#(i + 1)""#
                    s += #" x1="\#(n(x2))" y1="\#(n(y))" x2="\#(n(x2))" y2="\#(n(l.y(next.1)))""#
                    s += #" stroke="\#(colour)" stroke-width="1.5" stroke-dasharray="\#(dash)"/>"# + "\n"
                }
                // Labelled once, at the right, for the thresholds the device ended with.
                guard last else { continue }
                let label = name == "maximum" ? "max" : name
                s += #"<text x="\#(n(right + 4))" y="\#(n(y + 4))" fill="\#(colour)">"#
                s += "\(label) \(DecimalText.fixed(force, 2))</text>\n"
            }
        }
        return s
    }

    /// A threshold's lines in a span: name, force, colour, dash.
    static func lines(_ span: ThresholdSpan) -> [(String, Double, String, String)] {
        var lines: [(String, Double, String, String)] = []
        if let p = span.peekForce { lines.append(("peek", p, "rgb(224,123,0)", "6 4")) }
        if let p = span.popForce { lines.append(("pop", p, "rgb(192,23,43)", "6 4")) }
        if span.maximumPossibleForce > 0 {
            lines.append(("maximum", span.maximumPossibleForce, "rgb(119,119,119)", "2 3"))
        }
        return lines
    }

    func polyline(_ series: Series, colour: String, outcome: ContactOutcome? = nil, _ l: Layout) -> String {
        var points = series.points.map { "\(n(l.x($0.time))),\(n(l.y($0.force)))" }
        // A contact of one frame still shows: a zero-length line with round caps is drawn as a dot.
        if points.count == 1 { points.append(points[0]) }
        let tagged = outcome.map { #" data-outcome="\#($0.rawValue)""# } ?? ""
        return #"<polyline class="contact" data-contact="\#(series.contact)"\#(tagged) fill="none" stroke="\#(colour)""#
            + #" stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round" points="\#(points.joined(separator: " "))"/>"#
            + "\n"
    }

    /// A gesture's shape, and its label where `labels` has room for it.
    func marker(_ m: Marker, colour: String, _ l: Layout, labels: inout LabelPlacer) -> String {
        let x = l.x(m.time), y = l.y(m.force)
        var s = #"<g class="gesture" data-kind="\#(m.kind.rawValue)" data-contact="\#(m.contact)""#
        s += #" data-time="\#(Self.escape(m.time.description))">"#
        s += Self.shape(m.kind, x: x, y: y, colour: colour)
        // Labels sit at a different height per kind, so a peek and a pop in the same frame stay legible.
        let dy: Double
        switch m.kind {
        case .peek: dy = -10
        case .pop: dy = -22
        case .quickActions: dy = -34
        case .dismiss, .longPress: dy = 20
        }
        guard labels.place(m.kind.rawValue, x: x + 6, baseline: y + dy, contact: m.contact) else { return s + "</g>\n" }
        // A white halo keeps the label legible where it crosses the lines.
        s += #"<text x="\#(n(x + 6))" y="\#(n(y + dy))" font-size="11" fill="rgb(34,34,34)" stroke="white""#
        s += #" stroke-width="3" stroke-linejoin="round" paint-order="stroke">\#(m.kind.rawValue)</text>"#
        return s + "</g>\n"
    }

    /// A marker shape per gesture kind, so the kinds differ in black and white too.
    static func shape(_ kind: GestureKind, x: Double, y: Double, colour: String) -> String {
        let stroke = #"stroke="\#(colour)" stroke-width="2""#
        switch kind {
        case .peek:
            return #"<circle cx="\#(n(x))" cy="\#(n(y))" r="5" fill="white" \#(stroke)/>"#
        case .pop:
            return #"<path d="M\#(n(x)) \#(n(y - 7)) L\#(n(x + 7)) \#(n(y)) L\#(n(x)) \#(n(y + 7)) L\#(n(x - 7)) \#(n(y)) Z" fill="\#(colour)" stroke="rgb(34,34,34)"/>"#
        case .dismiss:
            return #"<path d="M\#(n(x - 5)) \#(n(y - 5)) L\#(n(x + 5)) \#(n(y + 5)) M\#(n(x - 5)) \#(n(y + 5)) L\#(n(x + 5)) \#(n(y - 5))" \#(stroke)/>"#
        case .quickActions:
            return #"<path d="M\#(n(x)) \#(n(y - 7)) L\#(n(x + 6)) \#(n(y + 4)) L\#(n(x - 6)) \#(n(y + 4)) Z" fill="white" \#(stroke)/>"#
        case .longPress:
            return #"<rect x="\#(n(x - 5))" y="\#(n(y - 5))" width="10" height="10" fill="white" \#(stroke)/>"#
        }
    }

    // MARK: Helpers

    /// Distinct colours: a qualitative palette, then hues a golden angle apart for any further contacts.
    static func colour(_ index: Int) -> String {
        let palette = ["rgb(31,119,180)", "rgb(255,127,14)", "rgb(44,160,44)", "rgb(214,39,40)", "rgb(148,103,189)", "rgb(140,86,75)", "rgb(227,119,194)", "rgb(23,190,207)", "rgb(188,189,34)"]
        if index < palette.count { return palette[index] }
        let hue = (Double(index) * 137.508).truncatingRemainder(dividingBy: 360)
        return "hsl(\(DecimalText.fixed(hue, 0)), 65%, 42%)"
    }

    /// A coordinate with one decimal: a tenth of a pixel is plenty, and it keeps big plots small.
    static func coordinate(_ v: Double) -> String { DecimalText.fixed(v, 1) }

    /// A tick label with as many decimals as its step needs.
    static func tick(_ v: Double, _ step: Double) -> String {
        DecimalText.fixed(v, step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3)
    }

    /// Text for XML character data and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 forbids most control characters, even escaped.
            case _ where c.value < 0x20 && c != "\t" && c != "\n" && c != "\r": out += "?"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

private func n(_ v: Double) -> String { ForcePlot.coordinate(v) }

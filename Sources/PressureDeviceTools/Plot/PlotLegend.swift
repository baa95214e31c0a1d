import PressureCore

/// The key at the right of a ``ForcePlot``: a colour a contact for a dozen contacts or fewer, else the
/// five outcomes (``ContactOutcome``) with how many contacts came to each; then a shape a gesture kind,
/// with how many fired wherever the picture could not label every marker or colours by outcome.
struct PlotLegend {
    var plot: ForcePlot
    var layout: ForcePlot.Layout
    /// How many of each gesture fired; nil shows none.
    var gestureCounts: [GestureKind: Int]?

    func svg() -> String {
        let x = ForcePlot.Layout.left + layout.plotWidth + 76
        var y = ForcePlot.Layout.top + 4
        var s = #"<g class="legend">"# + "\n"
        s += plot.coloursByOutcome ? outcomes(x: x, y: &y) : contacts(x: x, y: &y)
        y += 12
        for kind in GestureKind.allCases {
            s += ForcePlot.shape(kind, x: x + 11, y: y, colour: "rgb(85,85,85)")
            let counted = gestureCounts.map { count($0[kind] ?? 0) } ?? ""
            s += #"<text x="\#(n(x + 28))" y="\#(n(y + 4))">\#(kind.rawValue)\#(counted)</text>"# + "\n"
            y += 18
        }
        if plot.learning != nil {
            y += 6
            s += #"<rect x="\#(n(x))" y="\#(n(y - 6))" width="22" height="12" fill="rgb(238,238,238)" stroke="rgb(204,204,204)"/>"#
            s += #"<text x="\#(n(x + 28))" y="\#(n(y + 4))">a fresh device</text>"#
            s += #"<text x="\#(n(x + 28))" y="\#(n(y + 18))">still learning</text>"# + "\n"
        }
        return s + "</g>\n"
    }

    /// A count after a name, in grey.
    func count(_ value: Int) -> String { #"<tspan fill="rgb(102,102,102)"> \#(value)</tspan>"# }

    /// One row a contact, in its colour; beyond the room there is, summarised.
    func contacts(x: Double, y: inout Double) -> String {
        let series = plot.series
        var s = ""
        // Room for the gesture key below the contacts; contacts beyond that are summarised.
        let rows = Int((layout.plotHeight - 6 * 18 - 24) / 16)
        let shown = series.count <= rows ? series.count : max(0, rows - 1)
        for (i, series) in series.prefix(shown).enumerated() {
            s += #"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 22))" y2="\#(n(y))" stroke="\#(ForcePlot.colour(i))" stroke-width="3"/>"#
            s += #"<text x="\#(n(x + 28))" y="\#(n(y + 4))">contact \#(series.contact)</text>"# + "\n"
            y += 16
        }
        if shown < series.count {
            s += #"<text x="\#(n(x))" y="\#(n(y + 4))">… and \#(series.count - shown) more</text>"# + "\n"
            y += 16
        }
        if series.isEmpty {
            s += #"<text x="\#(n(x))" y="\#(n(y + 4))">no contacts</text>"# + "\n"
            y += 16
        }
        return s
    }

    /// The five outcomes, each with its colour and how many contacts came to it.
    func outcomes(x: Double, y: inout Double) -> String {
        var counts: [ContactOutcome: Int] = [:]
        for o in plot.outcomes { counts[o, default: 0] += 1 }
        var s = #"<text x="\#(n(x))" y="\#(n(y + 4))" fill="rgb(68,68,68)">\#(plot.series.count) contacts:</text>"# + "\n"
        y += 18
        for o in ContactOutcome.allCases {
            let c = counts[o] ?? 0
            s += #"<g class="outcome" data-outcome="\#(o.rawValue)" data-count="\#(c)">"#
            s += #"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 22))" y2="\#(n(y))" stroke="\#(o.colour)" stroke-width="3"/>"#
            s += #"<text x="\#(n(x + 28))" y="\#(n(y + 4))">\#(o.label)\#(count(c))</text></g>"# + "\n"
            y += 16
        }
        return s
    }
}

private func n(_ v: Double) -> String { ForcePlot.coordinate(v) }

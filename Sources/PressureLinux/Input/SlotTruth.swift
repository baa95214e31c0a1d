/// The true state of one slot after a resync, in the shape ``TouchPipeline/resync(slots:at:)`` takes.
public typealias SlotTruth = (trackingID: Int32, x: Int32, y: Int32, pressure: Int32)

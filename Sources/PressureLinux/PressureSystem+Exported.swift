// The Linux layer's API speaks the system layer's types (SystemError in every error, EventLoop and
// DeadlineTimer in the loops, FileBytes behind the loaders), so whoever uses it needs them too:
// re-exported, rather than an `import PressureSystem` beside every `import PressureLinux`.
@_exported import PressureSystem

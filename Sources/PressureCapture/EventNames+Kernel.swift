import PressureCore

extension EventNames {
    /// Every kernel name (``KernelNameTable``, generated from the kernel's headers).
    static let kernelTable = KernelNameTable.text
}

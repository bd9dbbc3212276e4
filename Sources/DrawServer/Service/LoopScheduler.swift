import DrawTransport

/// What makes the service loop's timers: the server's `ServiceLoop` (timers on the transport's
/// loop, `LoopTimer`), or in a test a fake whose timers are fired by hand. Owners that only need
/// timers can be handed one of these instead of the loop.
protocol LoopScheduler: AnyObject {
    associatedtype Timer: DrawTimer
    /// A one-shot timer whose `action` runs on the service thread.
    func timer(_ action: @escaping () -> Void) -> Timer
}

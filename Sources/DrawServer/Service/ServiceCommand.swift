import DrawTransport

/// Work other threads hand to the service thread: a job to run there (`ServiceExecutor`).
typealias ServiceCommand = @Sendable () -> Void

/// The server's inbox: jobs posted from any thread, run on the service thread.
typealias ServiceInbox = LoopInbox<ServiceCommand>

import Dispatch
import Foundation
import MapSnap

/// SIGINT and SIGTERM for the commands that write files (not `serve`, which drains instead): the temporaries
/// this process is writing are deleted (`AtomicFile.removeTemporariesInFlight`), a command's
/// last words are said (`setNote`: `data extract`'s "nothing was written"), and the process
/// exits at once, 130 or 143 — a read in flight may take long to end by itself, and a
/// temporary left behind would otherwise wait for the next run's sweep.
///
/// The handlers run on a Dispatch queue, not in the signal's context, so they may take
/// locks and allocate.
final class Interruptions: Sendable {
    static let shared = Interruptions()

    private struct State {
        var sources: [DispatchSourceSignal] = []
        var note: (@Sendable () -> Void)?
    }
    private let state = Locked(State())

    /// Takes over SIGINT and SIGTERM (once).
    func install() {
        state.withLock { s in
            guard s.sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in
                    AtomicFile.removeTemporariesInFlight()
                    state.withLock { $0.note }?()
                    exit(128 + number)
                }
                source.resume()
                s.sources.append(source)
            }
        }
    }

    /// What to do after the temporaries are gone and before exiting (print a line).
    func setNote(_ note: @escaping @Sendable () -> Void) {
        state.withLock { $0.note = note }
    }
}

import Foundation
import Combine

let maxItems = 20

/// Something that can be stored.
protocol Storable {
    var key: String { get }
}

/// A note with a title.
struct Note: Storable {
    var key: String
    var title: String
}

enum Mode {
    case memory
    case disk
}

/// Keeps notes. Evicts the oldest first.
class Store {
    private var notes: [String: Note] = [:]

    init(mode: Mode) {
        self.notes = [:]
    }

    func put(_ note: Note) {
        notes[note.key] = note
        trim(limit: maxItems)
    }

    private func trim(limit: Int) {
        while notes.count > limit {
            notes.removeValue(forKey: notes.keys.first!)
        }
    }
}

func makeStore() -> Store {
    return Store(mode: .memory)
}

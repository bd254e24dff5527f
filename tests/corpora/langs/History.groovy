package org.example.shell

import groovy.transform.CompileStatic
import java.util.prefs.Preferences

/**
 * Keeps the lines a shell user typed, newest last.
 */
@CompileStatic
class History implements Serializable, Iterable<String> {
    static final int MAX_ITEMS = 500

    private final List<String> items = []

    History(Preferences prefs) {
        load(prefs)
    }

    /**
     * Adds a line unless it repeats the last one.
     */
    void add(String line) {
        if (items && items.last() == line) {
            return
        }
        items << line
        trim()
    }

    def last(int n) {
        items.takeRight(n)
    }

    private void trim() {
        while (items.size() > MAX_ITEMS) {
            items.remove(0)
        }
    }

    static History empty() {
        new History(Preferences.userRoot())
    }
}

interface Recorder {
    void record(String line)
}

enum Direction { UP, DOWN }

def replay(History history) {
    history.last(10).each { println it }
}

trait Named {
    String name() { getClass().simpleName }
}

package org.example.shell

/**
 * Completes a word from a fixed list.
 */
class SimpleCompleter implements Completer {

    SortedSet<String> candidates = new TreeSet<String>()

    SimpleCompleter(final String[] words) {
        candidates.addAll(words)
    }

    int complete(String buffer, int cursor, List<CharSequence> found) throws IOException {
        for (String word : candidates.tailSet(buffer)) {
            if (!word.startsWith(buffer)) {
                break
            }
            found.add(word)
        }
        return found ? 0 : -1
    }
}

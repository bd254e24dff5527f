package com.example.store;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps stock counts per item. Not thread-safe.
 */
public class Inventory implements Countable {
    public static final int LIMIT = 1000;

    private final Map<String, Integer> stock = new HashMap<>();

    /** Add some units of an item. */
    public void add(String item, int n) {
        stock.merge(item, check(n), Integer::sum);
    }

    @Override
    public int count(String item) {
        return stock.getOrDefault(item, 0);
    }

    private static int check(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        return n;
    }

    enum Level { LOW, HIGH }
}

interface Countable {
    int count(String item);
}

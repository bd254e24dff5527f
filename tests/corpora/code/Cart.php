<?php

namespace App\Shop;

use App\Models\Item;
use Psr\Log\LoggerInterface;

const MAX_ITEMS = 50;

/**
 * A shopping cart. Holds items by id.
 */
class Cart implements \Countable
{
    private array $items = [];

    public function __construct(private LoggerInterface $log)
    {
    }

    /** Add an item. */
    public function add(Item $item): void
    {
        $this->items[$item->id] = $item;
        $this->log->info(describe($item));
    }

    public function count(): int
    {
        return count($this->items);
    }
}

interface Discount
{
    public function apply(float $total): float;
}

trait Loggable
{
    public function logName(): string
    {
        return static::class;
    }
}

function describe(Item $item): string
{
    return sprintf("%s (%d)", $item->name, $item->id);
}

import 'dart:math';
import 'package:shop/item.dart';

/// The largest number of lines in a cart.
const maxLines = 50;

/// A shopping cart.
class Cart extends Base with Logging implements Countable {
  final List<Item> _items = [];

  Cart();

  Cart.withItems(List<Item> items) {
    _items.addAll(items);
  }

  /// Adds an item, merging it with an equal one.
  void add(Item item) {
    _items.add(item);
    log('added');
  }

  int get count => _items.length;

  double total() => _items.fold(0, (sum, i) => sum + i.price);
}

enum Status { open, paid }

/// Rounds a price to cents.
double roundCents(double value) {
  return (value * 100).round() / 100;
}

package Shop::Inventory;
use strict;
use warnings;
use parent 'Shop::Base';
use List::Util qw(sum);
require Carp;

use constant LIMIT => 100;

# Create an empty inventory.
sub new {
    my ($class, %args) = @_;
    my $self = bless { items => {} }, $class;
    return $self;
}

# Add a number of an item.
sub add {
    my ($self, $name, $count) = @_;
    Carp::croak("too many") if $self->total + $count > LIMIT;
    $self->{items}{$name} += $count;
}

sub total {
    my $self = shift;
    return sum(values %{ $self->{items} }) // 0;
}

1;

const std = @import("std");
const Allocator = std.mem.Allocator;

pub const default_capacity = 64;

/// A growable byte buffer.
pub const Buffer = struct {
    bytes: []u8,
    len: usize,

    /// Makes an empty buffer.
    pub fn init(allocator: Allocator) !Buffer {
        const bytes = try allocator.alloc(u8, default_capacity);
        return .{ .bytes = bytes, .len = 0 };
    }

    pub fn append(self: *Buffer, byte: u8) void {
        self.bytes[self.len] = byte;
        self.len += 1;
    }
};

pub const Mode = enum { read, write };

/// A fixed-size ring of items of type `T`.
pub fn Ring(comptime T: type) type {
    return struct {
        items: [8]T,

        pub fn get(self: @This(), i: usize) T {
            return self.items[i % 8];
        }
    };
}

test "append grows the length" {
    var b = try Buffer.init(std.testing.allocator);
    b.append(1);
    try std.testing.expectEqual(@as(usize, 1), b.len);
}

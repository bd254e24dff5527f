module Geometry

using LinearAlgebra
import Base: show

export Point, distance

"""
    Point(x, y)

A point in the plane.
"""
struct Point{T<:Real}
    x::T
    y::T
end

abstract type Shape end

const ORIGIN = Point(0.0, 0.0)

"""
    distance(a, b)

The Euclidean distance between two points.
"""
function distance(a::Point, b::Point)
    return norm([a.x - b.x, a.y - b.y])
end

area(r::Real) = pi * r^2

Base.show(io::IO, p::Point) = print(io, "(", p.x, ", ", p.y, ")")

@inline function midpoint(a::Point, b::Point)
    Point((a.x + b.x) / 2, (a.y + b.y) / 2)
end

end

#include <cmath>
#include <string>
#include "shapes.hpp"

namespace geo {

constexpr double PI = 3.14159;

/// Anything with an area.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

struct Point {
    double x;
    double y;
};

class Circle : public Shape {
public:
    explicit Circle(double r) : r_(r) {}

    /// The circle's area.
    double area() const override {
        return PI * square(r_);
    }

private:
    double r_;
};

double square(double v) {
    return v * v;
}

std::string Describe(const Shape& s) {
    return "area " + std::to_string(s.area());
}

}  // namespace geo

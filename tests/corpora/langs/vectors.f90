! Vectors and their norms.
module vectors
  implicit none
  type :: vec3
    real :: x, y, z
  end type vec3
contains
  ! The Euclidean norm of v.
  pure function norm(v) result(n)
    type(vec3), intent(in) :: v
    real :: n
    n = sqrt(v%x**2 + v%y**2 + v%z**2)
  end function norm

  subroutine scale(v, f)
    type(vec3), intent(inout) :: v
    real, intent(in) :: f
    v%x = v%x * f
    call log_it(f)
  end subroutine scale
end module vectors

program main
  use vectors
  print *, norm(vec3(1.0, 2.0, 2.0))
end program main

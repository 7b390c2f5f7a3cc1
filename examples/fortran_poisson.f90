! A Fortran program solving a 2D Poisson problem (5-point, N x N interior
! points) with saga through its Fortran module; exit status 0 when it converged.
program fortran_poisson
  use iso_c_binding
  use saga
  implicit none
  integer, parameter :: N = 48
  integer(c_int32_t) :: n_rows, nnz, i, j, r
  integer(c_int32_t), allocatable :: row_ptr(:), col(:)
  real(c_double), allocatable :: val(:), b(:), x(:)
  type(c_ptr) :: s
  integer(c_int) :: its, converged
  real(c_double) :: rel

  n_rows = N * N
  allocate(row_ptr(n_rows + 1), col(5 * n_rows), val(5 * n_rows), b(n_rows), x(n_rows))
  nnz = 0
  do j = 0, N - 1
    do i = 0, N - 1
      r = j * N + i
      row_ptr(r + 1) = nnz
      if (j > 0) call put(r - N, -1d0)
      if (i > 0) call put(r - 1, -1d0)
      call put(r, 4d0)
      if (i + 1 < N) call put(r + 1, -1d0)
      if (j + 1 < N) call put(r + N, -1d0)
    end do
  end do
  row_ptr(n_rows + 1) = nnz
  b = 1d0
  x = 0d0

  if (saga_solver_create(s, saga_cstr("auto")) /= SAGA_OK) call fail("create")
  if (saga_solver_set(s, saga_cstr("solver.tolerance"), saga_cstr("1e-10")) /= SAGA_OK) call fail("set")
  if (saga_solver_setup(s, n_rows, row_ptr, col, val) /= SAGA_OK) call fail("setup")
  if (saga_solver_solve(s, b, x) /= SAGA_OK) call fail("solve")
  if (saga_solver_result(s, its, converged, rel) /= SAGA_OK) call fail("result")
  print '(a, i0, a, i0, a, es10.3)', "saga from Fortran: 2D Poisson ", N, ": iterations ", its, &
        ", relative residual ", rel
  call saga_solver_destroy(s)
  if (converged /= 1) stop 1

contains

  subroutine put(c, v)
    integer(c_int32_t), intent(in) :: c
    real(c_double), intent(in) :: v
    nnz = nnz + 1
    col(nnz) = c
    val(nnz) = v
  end subroutine

  subroutine fail(what)
    character(len=*), intent(in) :: what
    print *, what, " failed: ", saga_last_error()
    stop 1
  end subroutine

end program fortran_poisson

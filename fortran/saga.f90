! saga's Fortran interface: iso_c_binding declarations of the C API
! (api/saga_c.h; installed as include/saga/fortran/saga.f90: compile it with
! your program). Strings go in NUL-terminated (saga_cstr), arrays 0-based CSR.
module saga
  use iso_c_binding
  implicit none

  integer(c_int), parameter :: SAGA_OK = 0, SAGA_ERROR_INPUT = 1, SAGA_ERROR_DEVICE = 2, &
                               SAGA_ERROR_UNAVAILABLE = 3, SAGA_ERROR_STATE = 4, SAGA_ERROR_INTERNAL = 5

  interface
    function saga_solver_create(solver, backend) bind(C, name="saga_solver_create")
      import :: c_ptr, c_char, c_int
      type(c_ptr), intent(out) :: solver
      character(kind=c_char), intent(in) :: backend(*)
      integer(c_int) :: saga_solver_create
    end function
    subroutine saga_solver_destroy(solver) bind(C, name="saga_solver_destroy")
      import :: c_ptr
      type(c_ptr), value :: solver
    end subroutine
    function saga_solver_set(solver, key, value) bind(C, name="saga_solver_set")
      import :: c_ptr, c_char, c_int
      type(c_ptr), value :: solver
      character(kind=c_char), intent(in) :: key(*), value(*)
      integer(c_int) :: saga_solver_set
    end function
    ! config: a path or YAML/JSON text, null-terminated (trim(path)//c_null_char);
    ! backend: c_null_ptr for the config's own.
    function saga_solver_create_from_config(solver, config, backend) bind(C, name="saga_solver_create_from_config")
      import :: c_ptr, c_char, c_int
      type(c_ptr), intent(out) :: solver
      character(kind=c_char), intent(in) :: config(*)
      type(c_ptr), value :: backend
      integer(c_int) :: saga_solver_create_from_config
    end function
    function saga_solver_setup(solver, n, row_ptr, col, val) bind(C, name="saga_solver_setup")
      import :: c_ptr, c_int32_t, c_double, c_int
      type(c_ptr), value :: solver
      integer(c_int32_t), value :: n
      integer(c_int32_t), intent(in) :: row_ptr(*), col(*)
      real(c_double), intent(in) :: val(*)
      integer(c_int) :: saga_solver_setup
    end function
    function saga_solver_resetup(solver, val, refresh_prolongator) bind(C, name="saga_solver_resetup")
      import :: c_ptr, c_double, c_int
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: val(*)
      integer(c_int), value :: refresh_prolongator
      integer(c_int) :: saga_solver_resetup
    end function
    function saga_solver_apply(solver, r, z) bind(C, name="saga_solver_apply")
      import :: c_ptr, c_double, c_int
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: r(*)
      real(c_double), intent(out) :: z(*)
      integer(c_int) :: saga_solver_apply
    end function
    function saga_solver_solve(solver, b, x) bind(C, name="saga_solver_solve")
      import :: c_ptr, c_double, c_int
      type(c_ptr), value :: solver
      real(c_double), intent(in) :: b(*)
      real(c_double), intent(inout) :: x(*)
      integer(c_int) :: saga_solver_solve
    end function
    ! Device arrays (CUDA device pointers as type(c_ptr), e.g. c_devloc of CUDA Fortran
    ! or OpenACC host_data use_device): used in place, see api/saga_c.h.
    function saga_solver_setup_device(solver, n, nnz, row_ptr, col, val) bind(C, name="saga_solver_setup_device")
      import :: c_ptr, c_int32_t, c_int
      type(c_ptr), value :: solver
      integer(c_int32_t), value :: n, nnz
      type(c_ptr), value :: row_ptr, col, val
      integer(c_int) :: saga_solver_setup_device
    end function
    function saga_solver_setup_device_i64(solver, n, nnz, row_ptr, col, val) &
        bind(C, name="saga_solver_setup_device_i64")
      import :: c_ptr, c_int64_t, c_int
      type(c_ptr), value :: solver
      integer(c_int64_t), value :: n, nnz
      type(c_ptr), value :: row_ptr, col, val
      integer(c_int) :: saga_solver_setup_device_i64
    end function
    function saga_solver_resetup_device(solver, val, refresh_prolongator) bind(C, name="saga_solver_resetup_device")
      import :: c_ptr, c_int
      type(c_ptr), value :: solver, val
      integer(c_int), value :: refresh_prolongator
      integer(c_int) :: saga_solver_resetup_device
    end function
    function saga_solver_set_stream(solver, stream) bind(C, name="saga_solver_set_stream")
      import :: c_ptr, c_int
      type(c_ptr), value :: solver, stream
      integer(c_int) :: saga_solver_set_stream
    end function
    function saga_solver_apply_device(solver, r, z) bind(C, name="saga_solver_apply_device")
      import :: c_ptr, c_int
      type(c_ptr), value :: solver, r, z
      integer(c_int) :: saga_solver_apply_device
    end function
    function saga_solver_solve_device(solver, b, x) bind(C, name="saga_solver_solve_device")
      import :: c_ptr, c_int
      type(c_ptr), value :: solver, b, x
      integer(c_int) :: saga_solver_solve_device
    end function
    function saga_solver_release_workspace(solver) bind(C, name="saga_solver_release_workspace")
      import :: c_ptr, c_int
      type(c_ptr), value :: solver
      integer(c_int) :: saga_solver_release_workspace
    end function
    function saga_solver_result(solver, iterations, converged, relative_residual) bind(C, name="saga_solver_result")
      import :: c_ptr, c_double, c_int
      type(c_ptr), value :: solver
      integer(c_int), intent(out) :: iterations, converged
      real(c_double), intent(out) :: relative_residual
      integer(c_int) :: saga_solver_result
    end function
    function saga_last_error_c() bind(C, name="saga_last_error")
      import :: c_ptr
      type(c_ptr) :: saga_last_error_c
    end function
  end interface

contains

  ! A Fortran string as a NUL-terminated C string.
  function saga_cstr(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: c
    c = trim(s) // c_null_char
  end function

  ! The message of the last failed call, as a Fortran string.
  function saga_last_error() result(msg)
    character(len=:), allocatable :: msg
    character(kind=c_char), pointer :: chars(:)
    integer :: n
    call c_f_pointer(saga_last_error_c(), chars, [4096])
    n = 0
    do while (n < 4096)
      if (chars(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate(character(len=n) :: msg)
    msg = transfer(chars(1:n), msg)
  end function

end module saga

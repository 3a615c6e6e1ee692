! A plain Fortran program calling the BLAS: SGEMM comes from libecgemm_blas
! (linked first), everything else - SNRM2 here - from the system BLAS:
!
!   gfortran blas_dropin.f90 -L<prefix>/lib -Wl,-rpath,<prefix>/lib -lecgemm_blas -lblas
!
! Checks each product against a double-precision loop, and that the rows of C
! below M (its leading-dimension padding) are left alone.
program blas_dropin
  implicit none
  external :: sgemm
  real, external :: snrm2
  integer :: failures = 0
  real(kind(1d0)) :: tolerance_split, tolerance_accum

  call mode_tolerance(tolerance_split, tolerance_accum)
  call check('N', 'N', 64, 48, 80, 1.0, 0.0)
  call check('T', 'N', 130, 33, 257, -0.75, 0.5)
  call check('n', 't', 7, 129, 31, 2.0, 1.0)
  call check('C', 'T', 256, 256, 256, 1.0, -1.0)
  call check('N', 'N', 19, 5, 0, 1.0, 2.5)            ! k = 0: C = beta * C
  call check('T', 'T', 300, 211, 120, 0.0, 0.5)       ! alpha = 0: A, B unreferenced
  print '(a, i0, a)', 'blas_dropin: ', failures, ' failure(s)'
  if (failures /= 0) error stop 1

contains

  subroutine check(ta, tb, m, n, k, alpha, beta)
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k
    real, intent(in) :: alpha, beta
    integer, parameter :: pad = 3
    real, parameter :: sentinel = -999.5
    real, allocatable :: a(:, :), b(:, :), c(:, :), diff(:)
    real(kind(1d0)), allocatable :: want(:, :), scale(:, :)
    integer :: lda, ldb, ldc, i, j, l
    real(kind(1d0)) :: x, y, relative
    logical :: trans_a, trans_b

    trans_a = ta /= 'N' .and. ta /= 'n'
    trans_b = tb /= 'N' .and. tb /= 'n'
    lda = merge(k, m, trans_a) + pad
    ldb = merge(n, k, trans_b) + pad
    ldc = m + pad
    allocate(a(lda, max(1, merge(m, k, trans_a))), b(ldb, max(1, merge(k, n, trans_b))))
    allocate(c(ldc, n), want(m, n), scale(m, n), diff(m * n))
    call random_number(a)
    call random_number(b)
    call random_number(c)
    a = 2 * a - 1
    b = 2 * b - 1
    c(m + 1:, :) = sentinel

    do j = 1, n
      do i = 1, m
        want(i, j) = beta * real(c(i, j), kind(1d0))
        scale(i, j) = abs(want(i, j))
        do l = 1, k
          x = merge(a(l, i), a(i, l), trans_a)
          y = merge(b(j, l), b(l, j), trans_b)
          want(i, j) = want(i, j) + alpha * x * y
          scale(i, j) = scale(i, j) + abs(alpha * x * y)
        end do
      end do
    end do

    call sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)

    ! The residual's norm through the system BLAS's SNRM2, the bound per element.
    diff = reshape(real(c(1:m, :) - want), [m * n])
    relative = snrm2(m * n, diff, 1) / max(tiny(1.0), real(norm2(scale)))
    if (any(abs(c(1:m, :) - want) > (tolerance_split + tolerance_accum * (k + 2)) * scale &
                                     + tiny(1.0)) &
        .or. any(abs(c(m + 1:, :) - sentinel) > 0)) then
      print '(a, 2a1, 3(1x, i0), a, es10.3)', 'FAIL ', ta, tb, m, n, k, ': relative residual ', &
          relative
      failures = failures + 1
    else
      print '(a, 2a1, 3(1x, i0), a, es10.3)', 'ok   ', ta, tb, m, n, k, ': relative residual ', &
          relative
    end if
  end subroutine

  ! The error bound of the mode in ECGEMM_BLAS_MODE (see tests/c/blas_test_util.h).
  subroutine mode_tolerance(split, accum)
    real(kind(1d0)), intent(out) :: split, accum
    character(len=16) :: mode
    real(kind(1d0)), parameter :: u = 2d0**(-24)
    call get_environment_variable('ECGEMM_BLAS_MODE', mode)
    select case (mode)
    case ('fp32')
      split = 0
      accum = 2 * u
    case ('markidis')
      split = 2d0**(-18)
      accum = 4 * u
    case ('tf32', 'fp16')
      split = 2d0**(-9)
      accum = 4 * u
    case default       ! tf32tf32, halfhalf, auto
      split = 2d0**(-20)
      accum = 2 * u
    end select
  end subroutine

end program

// Horseshoe (the seed suite's "2D FE, horseshoe", 000_... Table 3, 5a): the
// upper half of the annulus 0.5 < r < 1 standing on two legs of width 0.5 and
// height 1. saga sets the element size with gmsh -clmax h (problem.h).
// Physical groups: curves "feet" (leg bottoms) and "walls" (the rest of the
// boundary); surfaces "arch" and "legs" (for piecewise coefficients).
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {0, 1, 0};
Point(4) = {-1, 0, 0};
Point(5) = {0.5, 0, 0};
Point(6) = {0, 0.5, 0};
Point(7) = {-0.5, 0, 0};
Point(8) = {1, -1, 0};
Point(9) = {0.5, -1, 0};
Point(10) = {-0.5, -1, 0};
Point(11) = {-1, -1, 0};
Circle(1) = {2, 1, 3};   // outer arc
Circle(2) = {3, 1, 4};
Circle(3) = {5, 1, 6};   // inner arc
Circle(4) = {6, 1, 7};
Line(5) = {4, 7};        // arch / left leg
Line(6) = {5, 2};        // arch / right leg
Line(7) = {2, 8};
Line(8) = {8, 9};        // right foot
Line(9) = {9, 5};
Line(10) = {7, 10};
Line(11) = {10, 11};     // left foot
Line(12) = {11, 4};
Curve Loop(1) = {1, 2, 5, -4, -3, 6};
Plane Surface(1) = {1};
Curve Loop(2) = {7, 8, 9, 6};
Plane Surface(2) = {2};
Curve Loop(3) = {10, 11, 12, 5};
Plane Surface(3) = {3};
Physical Curve("feet") = {8, 11};
Physical Curve("walls") = {1, 2, 3, 4, 7, 9, 10, 12};
Physical Surface("arch") = {1};
Physical Surface("legs") = {2, 3};

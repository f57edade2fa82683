package activeset

import (
	"encoding/json"
	"math"
	"os"
	"testing"
	"time"

	"github.com/softpen/softpen/libsvm"
	"github.com/softpen/softpen/mat"
)

func TestScratchMushrooms(t *testing.T) {
	f, _ := os.Open("../testdata/svm/mushrooms.libsvm")
	d, err := libsvm.Read(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, n := len(d.Labels), d.NFeatures
	p := &Problem{N: n, H: mat.NewDense(n, n), C: make([]float64, n), A: mat.NewDense(m, n), B: make([]float64, m)}
	p.H.AddDiag(1)
	for i := 0; i < m; i++ {
		for j, v := range d.Rows[i] {
			p.A.Row(i)[j] = -d.Labels[i] * v
		}
		p.B[i] = -1
	}
	var ref struct{ X []float64 }
	data, _ := os.ReadFile("../testdata/svm/mushrooms.ref.json")
	json.Unmarshal(data, &ref)
	for rep := 0; rep < 3; rep++ {
		t0 := time.Now()
		s, _ := New(p, nil)
		t1 := time.Now()
		r := s.Solve()
		t2 := time.Now()
		e, nr := 0.0, 0.0
		for i := range ref.X {
			e += (r.X[i] - ref.X[i]) * (r.X[i] - ref.X[i])
			nr += ref.X[i] * ref.X[i]
		}
		t.Logf("status %v iter %d active %d new %v solve %v relerr %.2g gap %.2g", r.Status, r.Iter, r.Active, t1.Sub(t0), t2.Sub(t1), math.Sqrt(e/nr), r.Gap)
	}
}

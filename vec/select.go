package vec

// SelectLargest reorders v so that its k largest values come first and
// returns the k-th largest (1 <= k <= len(v)): quickselect with a
// median-of-three pivot, O(len(v)) expected, deterministic (the same v gives
// the same order) and allocation-free. v must hold no NaN.
func SelectLargest(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	t := k - 1 // index of the answer in descending order
	for lo < hi {
		mid := lo + (hi-lo)/2
		a, b, c := v[lo], v[mid], v[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo, hi
		for i <= j {
			for v[i] > p {
				i++
			}
			for v[j] < p {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case t <= j:
			hi = j
		case t >= i:
			lo = i
		default:
			return v[t]
		}
	}
	return v[t]
}

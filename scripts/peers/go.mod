module github.com/softpen/softpen/scripts/peers

go 1.26.0

require (
	github.com/softpen/softpen v0.0.0
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.49.0 // indirect

replace github.com/softpen/softpen => ../..

// Written for Strata's tests after cobra's user guide (a root command in cmd/, children
// added with AddCommand); cobra itself is Apache-2.0 (github.com/spf13/cobra).
package main

import "example.com/app/cmd"

func main() {
	cmd.Execute()
}

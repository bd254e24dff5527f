package cmd

import "github.com/spf13/cobra"

var configCmd = &cobra.Command{Use: "config", Short: "Show or change the configuration"}

var configShowCmd = &cobra.Command{Use: "show", Short: "Print the configuration", Run: showConfig}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version number of Hugo",
		Run:   printVersion,
	}
}

func printVersion(cmd *cobra.Command, args []string) {}
func showConfig(cmd *cobra.Command, args []string)   {}

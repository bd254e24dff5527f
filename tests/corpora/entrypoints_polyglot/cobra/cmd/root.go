package cmd

import (
	"fmt"
	"net/http"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:   "hugo",
	Short: "Hugo is a very fast static site generator",
	Run:   func(cmd *cobra.Command, args []string) {},
}

var serveCmd = &cobra.Command{
	Use:   "serve [flags]",
	Short: "Serve the site over HTTP",
	RunE:  runServe,
}

func init() {
	rootCmd.AddCommand(serveCmd, newVersionCmd())
	configCmd.AddCommand(configShowCmd)
	rootCmd.AddCommand(configCmd)
}

func runServe(cmd *cobra.Command, args []string) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", healthz)
	http.HandleFunc("/static/", static)
	return http.ListenAndServe(":1313", mux)
}

func healthz(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }
func static(w http.ResponseWriter, r *http.Request)  {}

// Execute runs the root command.
func Execute() error { return rootCmd.Execute() }

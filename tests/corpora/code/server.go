// Package server routes requests.
package server

import (
	"fmt"
	"net/http"
)

// MaxConns caps open connections.
const MaxConns = 100

// Handler answers one request.
type Handler interface {
	Serve(w http.ResponseWriter, r *http.Request)
}

// Server holds the route table.
type Server struct {
	routes map[string]Handler
	name   string
}

// NewServer makes an empty server.
func NewServer(name string) *Server {
	return &Server{routes: map[string]Handler{}, name: name}
}

// Handle registers a route.
func (s *Server) Handle(path string, h Handler) {
	s.routes[normalize(path)] = h
}

func (s Server) String() string {
	return fmt.Sprintf("server %s", s.name)
}

func normalize(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

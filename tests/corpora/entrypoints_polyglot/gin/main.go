// Written for Strata's tests after the usage shown in gin's README (grouping routes,
// parameters in path); gin itself is MIT-licensed (github.com/gin-gonic/gin).
package main

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

func main() {
	router := gin.Default()
	router.GET("/user/:name", userByName)
	router.POST("/form_post", formPost)

	v1 := router.Group("/v1")
	{
		v1.POST("/login", loginEndpoint)
		v1.POST("/submit", submitEndpoint)
		admin := v1.Group("/admin")
		admin.DELETE("/users/:id", deleteUser)
	}
	v2 := router.Group("/v2")
	registerV2(v2)
	router.Run(":8080")
}

func registerV2(rg *gin.RouterGroup) {
	rg.GET("/read", readEndpoint)
	rg.Handle("PATCH", "/items/:id", patchItem)
}

func userByName(c *gin.Context)     { c.String(http.StatusOK, "Hello %s", c.Param("name")) }
func formPost(c *gin.Context)       {}
func loginEndpoint(c *gin.Context)  {}
func submitEndpoint(c *gin.Context) {}
func deleteUser(c *gin.Context)     {}
func readEndpoint(c *gin.Context)   {}
func patchItem(c *gin.Context)      {}

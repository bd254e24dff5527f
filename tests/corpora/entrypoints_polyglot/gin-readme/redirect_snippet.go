// From gin 1.8.1's README.md (line 1482), Copyright (c) 2014 Manu Martinez-Almeida, MIT licence.
r.GET("/test", func(c *gin.Context) {
    c.Request.URL.Path = "/test2"
    r.HandleContext(c)
})
r.GET("/test2", func(c *gin.Context) {
    c.JSON(http.StatusOK, gin.H{"hello": "world"})
})

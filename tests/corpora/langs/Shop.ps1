<#
.SYNOPSIS
Gets the shop's orders.
#>
function Get-Order {
    param([string]$Id)
    Invoke-RestMethod -Uri "https://shop/orders/$Id"
}

# Places an order.
function global:New-Order([string]$Sku) {
    Get-Order -Id 1
}

class Cart {
    [string[]]$Items
    Cart() { $this.Items = @() }
    [void] Add([string]$Sku) { $this.Items += $Sku }
}

enum State { Open; Paid }

filter Only-Paid { if ($_.State -eq 'Paid') { $_ } }
